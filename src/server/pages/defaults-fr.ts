import type { PageDefaults } from './defaults.ts'

// Les pages de la boutique telles qu'elles se lisent tant que l'exploitant n'a pas écrit les siennes
// (docs/pages.md). French typography is added where the page is made (pages.ts).

export const FR: PageDefaults = {
  about: ({ operator, email }) => `# À propos de ${operator}

${operator} vend des shouts : quelques secondes sur un panneau numérique, pendant un événement, avec votre photo ou votre vidéo et votre message à quelqu'un.

Vous choisissez le panneau et les horaires, créez le shout à partir d'un modèle, puis payez. Le shout est vérifié, puis diffusé aux horaires choisis, et vous pouvez suivre sa diffusion.

Des questions : [${email}](mailto:${email}).`,
  faqs: ({ email }) => `# FAQ

## Comment ça marche ?
Choisissez un panneau, un modèle et vos horaires, ajoutez votre photo ou vidéo et votre message, puis payez. Votre shout passe plusieurs fois dans chaque créneau choisi.

## Quand mon shout passe-t-il ?
Aux horaires indiqués dans votre e-mail de confirmation, à l'heure du panneau. La boutique peut vous prévenir quand il passe.

## Puis-je modifier mon shout après la commande ?
Non : ce que vous avez commandé est ce qui sera diffusé. Vérifiez l'aperçu à l'étape de relecture avant de commander.

## Et si mon shout n'est pas diffusé ?
Le panneau signale chaque diffusion. Une diffusion qui n'a pas eu lieu est remboursée, et la page de votre commande l'indique.

## Pourquoi mon shout a-t-il été refusé ?
Chaque shout est vérifié selon la [politique de contenu](/s/content-policy/fr) avant sa diffusion. Un shout refusé ne vous coûte rien : son paiement est annulé ou intégralement remboursé.

## Que deviennent mes données ?
Voir [Vos données](/s/privacy/fr) : ce qui est conservé, combien de temps, et comment le faire oublier plus tôt.

## Autre chose ?
Écrivez à [${email}](mailto:${email}).`,
  contact: ({ operator, email }) => `# Contact

Écrivez à ${operator} à [${email}](mailto:${email}).

Pour une commande, indiquez son code de confirmation : il figure dans votre e-mail de confirmation et sur la page de votre commande.`,
  press: ({ operator, email }) => `# Presse

Pour une interview, des photos de shouts sur les panneaux ou des chiffres sur ${operator}, écrivez à [${email}](mailto:${email}).`,
  terms: ({ operator, email }) => `# Conditions générales

Ces conditions vous lient à ${operator}, qui exploite cette boutique.

1. **Ce que vous achetez.** Un shout : votre création, diffusée sur le panneau choisi, aux horaires choisis, autant de fois par créneau que l'événement l'indique. Le prix est affiché avant le paiement, dans la devise de l'événement.
2. **Votre contenu.** Vous avez le droit d'utiliser la photo, la vidéo et les mots que vous envoyez, et ils respectent la [politique de contenu](/s/content-policy/fr). Chaque shout est vérifié avant sa diffusion ; un shout refusé ne vous coûte rien (son paiement est annulé ou intégralement remboursé).
3. **Aucune modification.** Un shout ne peut plus être modifié une fois commandé.
4. **Diffusions manquées.** Le panneau signale chaque diffusion ; une diffusion qui n'a pas eu lieu est remboursée sur votre carte.
5. **Sécurité.** Ne guettez jamais votre shout en conduisant ou en traversant la rue.
6. **Vos données.** Voir la [politique de confidentialité](/s/privacy-policy/fr).

Des questions sur ces conditions : [${email}](mailto:${email}).`,
  'privacy-policy': ({ operator, email }) => `# Politique de confidentialité

${operator} exploite cette boutique et est responsable des données personnelles qu'elle conserve.

Nous conservons vos nom, adresse e-mail et numéro de téléphone, votre photo ou vidéo et votre message uniquement pour créer, vérifier et diffuser votre shout et vous en informer, et seulement aussi longtemps que l'indique [Vos données](/s/privacy/fr). Nous ne les partageons qu'avec les services qui exécutent votre commande (le prestataire de paiement, le service d'e-mail) ; avec le sponsor d'un événement de marque seulement si vous cochez la case prévue.

Pour consulter, corriger ou supprimer vos données, utilisez le lien « Oublier mes données » de tout e-mail concernant votre commande, ou écrivez à [${email}](mailto:${email}).`,
  'content-policy': ({ operator, email }) => `# Politique de contenu

Un shout est vu par tout le monde dans la rue, enfants compris. ${operator} ne diffuse que les shouts qui respectent ces règles :

- pas de nudité ni de contenu sexuel ;
- pas de violence, d'armes, de drogues ni rien d'illégal ;
- pas de haine, d'insultes ni de harcèlement envers qui que ce soit ;
- pas de photo d'une personne qui n'a pas donné son accord, ni les coordonnées privées de quiconque ;
- pas de publicité, de marques ni de propagande politique ;
- uniquement des photos, vidéos et mots que vous avez le droit d'utiliser.

Chaque shout est vérifié, par un logiciel et par des personnes, avant sa diffusion. Un shout refusé ne vous coûte rien : son paiement est annulé ou intégralement remboursé. Pour signaler un shout sur un panneau, écrivez à [${email}](mailto:${email}).`,
}
