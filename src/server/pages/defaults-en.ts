import type { PageDefaults } from './defaults.ts'

// The shop's pages as they read until the operator writes their own (docs/pages.md): true of every
// shop this code runs, naming the operator from the configuration (OPERATOR_NAME, OPERATOR_EMAIL).

export const EN: PageDefaults = {
  about: ({ operator, email }) => `# About ${operator}

${operator} sells shouts: a few seconds on a digital billboard, during an event, with your photo or video and your message to someone.

You choose the billboard and the times, design the shout from a template, and pay. The shout is checked, then it plays at the times you chose, and you can follow when it is on air.

Questions: [${email}](mailto:${email}).`,
  faqs: ({ email }) => `# FAQs

## How does it work?
Choose a billboard, a template and your times, add your photo or video and your message, then pay. Your shout plays several times in each time slot you chose.

## When does my shout play?
At the times listed in your confirmation mail, on the billboard's clock. You can ask the shop to tell you when it goes on air.

## Can I change my shout after ordering?
No: what you ordered is what plays. Check the preview on the review step before you place the order.

## What if my shout does not play?
The billboard reports every play. A play that did not happen is refunded, and your order's page says so.

## Why was my shout refused?
Every shout is checked against the [content policy](/s/content-policy/en) before it plays. A refused shout costs you nothing: its payment is cancelled or refunded in full.

## What happens to my data?
See [Your data](/s/privacy/en): what is kept, for how long, and how to have it forgotten sooner.

## Anything else?
Write to [${email}](mailto:${email}).`,
  contact: ({ operator, email }) => `# Contact

Write to ${operator} at [${email}](mailto:${email}).

About an order, please give its confirmation code: it is in your confirmation mail and on your order's page.`,
  press: ({ operator, email }) => `# Press

For interviews, pictures of shouts on the billboards and figures about ${operator}, write to [${email}](mailto:${email}).`,
  terms: ({ operator, email }) => `# Terms and conditions

These terms are between you and ${operator}, who runs this shop.

1. **What you buy.** A shout: your design, played on the billboard you chose, at the times you chose, as many times per time slot as the event says. The price is shown before you pay, in the event's currency.
2. **Your content.** You have the right to use the photo, video and words you send, and they follow the [content policy](/s/content-policy/en). Every shout is checked before it plays; a refused shout costs you nothing (its payment is cancelled or refunded in full).
3. **No changes.** A shout cannot be changed once ordered.
4. **Plays that did not happen.** The billboard reports every play; a play that did not happen is refunded to your card.
5. **Safety.** Never watch for your shout while driving or crossing a road.
6. **Your data.** See the [privacy policy](/s/privacy-policy/en).

Questions about these terms: [${email}](mailto:${email}).`,
  'privacy-policy': ({ operator, email }) => `# Privacy policy

${operator} runs this shop and is responsible for the personal data it keeps.

We keep your name, e-mail address and phone number, your photo or video and your message only to make, check and play your shout and to tell you about it, and only as long as [Your data](/s/privacy/en) says. We share them with nobody but the services that carry out your order (the payment provider, the mail service); the sponsor of a branded event only when you tick the box that says so.

To see, correct or remove your data, use the "Forget my data" link in any mail about your order, or write to [${email}](mailto:${email}).`,
  'content-policy': ({ operator, email }) => `# Content policy

A shout is seen by everyone in the street, children too. ${operator} plays only shouts that follow these rules:

- no nudity or sexual content;
- no violence, weapons, drugs or anything illegal;
- no hate, insults or harassment of anyone;
- no photo of someone who did not agree to it, and no one's private details (addresses, phone numbers);
- no advertising, brands or political campaigning;
- only photos, videos and words you have the right to use.

Every shout is checked, by software and by people, before it plays. A refused shout costs you nothing: its payment is cancelled or refunded in full. To report a shout on a billboard, write to [${email}](mailto:${email}).`,
}
