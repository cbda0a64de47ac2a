import type { PageDefaults } from './defaults.ts'

// Die Seiten des Shops, wie sie lauten, bis der Betreiber eigene schreibt (docs/pages.md).

export const DE: PageDefaults = {
  about: ({ operator, email }) => `# Über ${operator}

${operator} verkauft Shouts: ein paar Sekunden auf einer digitalen Werbetafel während eines Events, mit deinem Foto oder Video und deiner Nachricht an jemanden.

Du wählst die Werbetafel und die Zeiten, gestaltest den Shout mit einer Vorlage und bezahlst. Der Shout wird geprüft und läuft dann zu den gewählten Zeiten, und du kannst verfolgen, wann er zu sehen ist.

Fragen: [${email}](mailto:${email}).`,
  faqs: ({ email }) => `# FAQ

## Wie funktioniert es?
Wähle eine Werbetafel, eine Vorlage und deine Zeiten, füge dein Foto oder Video und deine Nachricht hinzu und bezahle. Dein Shout läuft in jedem gewählten Zeitfenster mehrmals.

## Wann läuft mein Shout?
Zu den Zeiten in deiner Bestätigungsmail, nach der Uhr der Werbetafel. Der Shop kann dir Bescheid geben, wenn er läuft.

## Kann ich meinen Shout nach der Bestellung ändern?
Nein: Was du bestellst, wird gezeigt. Prüfe die Vorschau im Schritt „Überprüfen“, bevor du bestellst.

## Was, wenn mein Shout nicht läuft?
Die Werbetafel meldet jede Ausstrahlung. Eine Ausstrahlung, die nicht stattfand, wird erstattet, und die Seite deiner Bestellung sagt es.

## Warum wurde mein Shout abgelehnt?
Jeder Shout wird vor der Ausstrahlung nach der [Inhaltsrichtlinie](/s/content-policy/de) geprüft. Ein abgelehnter Shout kostet dich nichts: Die Zahlung wird storniert oder vollständig erstattet.

## Was passiert mit meinen Daten?
Siehe [Deine Daten](/s/privacy/de): was gespeichert wird, wie lange, und wie du es früher vergessen lassen kannst.

## Noch etwas?
Schreib an [${email}](mailto:${email}).`,
  contact: ({ operator, email }) => `# Kontakt

Schreib an ${operator}: [${email}](mailto:${email}).

Zu einer Bestellung nenne bitte ihren Bestätigungscode: Er steht in deiner Bestätigungsmail und auf der Seite deiner Bestellung.`,
  press: ({ operator, email }) => `# Presse

Für Interviews, Bilder von Shouts auf den Werbetafeln und Zahlen zu ${operator} schreib an [${email}](mailto:${email}).`,
  terms: ({ operator, email }) => `# Allgemeine Geschäftsbedingungen

Diese Bedingungen gelten zwischen dir und ${operator}, der diesen Shop betreibt.

1. **Was du kaufst.** Einen Shout: deine Gestaltung, gezeigt auf der gewählten Werbetafel, zu den gewählten Zeiten, so oft pro Zeitfenster, wie das Event angibt. Der Preis wird vor der Zahlung angezeigt, in der Währung des Events.
2. **Deine Inhalte.** Du darfst das Foto, das Video und die Worte verwenden, die du sendest, und sie folgen der [Inhaltsrichtlinie](/s/content-policy/de). Jeder Shout wird vor der Ausstrahlung geprüft; ein abgelehnter Shout kostet dich nichts (die Zahlung wird storniert oder vollständig erstattet).
3. **Keine Änderungen.** Ein Shout kann nach der Bestellung nicht mehr geändert werden.
4. **Ausgefallene Ausstrahlungen.** Die Werbetafel meldet jede Ausstrahlung; eine Ausstrahlung, die nicht stattfand, wird auf deine Karte erstattet.
5. **Sicherheit.** Halte nie nach deinem Shout Ausschau, während du fährst oder eine Straße überquerst.
6. **Deine Daten.** Siehe die [Datenschutzerklärung](/s/privacy-policy/de).

Fragen zu diesen Bedingungen: [${email}](mailto:${email}).`,
  'privacy-policy': ({ operator, email }) => `# Datenschutzerklärung

${operator} betreibt diesen Shop und ist für die personenbezogenen Daten verantwortlich, die er speichert.

Wir speichern deinen Namen, deine E-Mail-Adresse und Telefonnummer, dein Foto oder Video und deine Nachricht nur, um deinen Shout zu erstellen, zu prüfen, zu zeigen und dich darüber zu informieren, und nur so lange, wie [Deine Daten](/s/privacy/de) sagt. Wir geben sie nur an die Dienste weiter, die deine Bestellung ausführen (den Zahlungsdienst, den Mail-Dienst); an den Sponsor eines Marken-Events nur, wenn du das entsprechende Kästchen ankreuzt.

Um deine Daten einzusehen, zu berichtigen oder zu löschen, nutze den Link „Meine Daten vergessen“ in jeder Mail zu deiner Bestellung oder schreib an [${email}](mailto:${email}).`,
  'content-policy': ({ operator, email }) => `# Inhaltsrichtlinie

Ein Shout wird von allen auf der Straße gesehen, auch von Kindern. ${operator} zeigt nur Shouts, die diesen Regeln folgen:

- keine Nacktheit und keine sexuellen Inhalte;
- keine Gewalt, Waffen, Drogen oder sonst Illegales;
- kein Hass, keine Beleidigungen und keine Belästigung von irgendwem;
- kein Foto einer Person ohne ihr Einverständnis und keine privaten Angaben anderer;
- keine Werbung, Marken oder politische Kampagnen;
- nur Fotos, Videos und Worte, die du verwenden darfst.

Jeder Shout wird vor der Ausstrahlung von Software und von Menschen geprüft. Ein abgelehnter Shout kostet dich nichts: Die Zahlung wird storniert oder vollständig erstattet. Um einen Shout auf einer Werbetafel zu melden, schreib an [${email}](mailto:${email}).`,
}
