// The mail module's face: what other modules may use. Nothing else of mail/ is imported from outside it.

export { createMailer, withoutAddresses } from './mailer.ts';
export type { MailMessage, Mailer } from './mailer.ts';
export { signInMail } from './signin-mail.ts';
