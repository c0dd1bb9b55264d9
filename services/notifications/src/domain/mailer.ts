import { mkdir, readdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';
import type { MailTransportKind } from '../db/email-log';

interface OutgoingEmail {
  /** The email.send command id: names the .eml file and ties the message to the log. */
  id: string;
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** Whose name it goes out in (absent: WarmLine). */
  brand?: MailBrand;
}

type MailBrand = 'WarmLine' | 'RingCloud';

/** The From address of each brand's e-mails (MAIL_FROM, RINGCLOUD_MAIL_FROM). */
export type SenderByBrand = Record<MailBrand, string>;

interface Delivery {
  transport: MailTransportKind;
  /** SMTP message id, or the .eml file's path. */
  location: string;
}

export interface Mailer {
  readonly transport: MailTransportKind;
  send(message: OutgoingEmail): Promise<Delivery>;
  /**
   * Whether the message of command `id` went out, asked for a claim an earlier run left
   * unrecorded (docs/adr/0041): its location when it did, undefined when it certainly did not,
   * 'unknown' when the transport cannot tell (an SMTP server's acceptance is not kept here).
   */
  deliveryOf(id: string): Promise<string | undefined | 'unknown'>;
  close(): void;
}

/**
 * Nodemailer to SMTP_URL when it is set; otherwise every message is rendered to an .eml file
 * under mailDir so a developer can open what would have been sent (ARCHITECTURE §5).
 */
export function createMailer(options: { smtpUrl?: string; from: SenderByBrand; mailDir: string }): Mailer {
  return options.smtpUrl ? smtpMailer(options.smtpUrl, options.from) : fileMailer(options.mailDir, options.from);
}

function smtpMailer(smtpUrl: string, from: SenderByBrand): Mailer {
  const transporter = nodemailer.createTransport(smtpUrl);
  return {
    transport: 'smtp',
    async send(message) {
      const info = await transporter.sendMail({ from: from[message.brand ?? 'WarmLine'], ...mailFields(message) });
      return { transport: 'smtp', location: info.messageId };
    },
    deliveryOf: () => Promise.resolve('unknown'),
    close: () => transporter.close(),
  };
}

function fileMailer(mailDir: string, from: SenderByBrand): Mailer {
  const renderer = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  const dir = path.resolve(mailDir);
  return {
    transport: 'file',
    async send(message) {
      const info = await renderer.sendMail({ from: from[message.brand ?? 'WarmLine'], ...mailFields(message) });
      await mkdir(dir, { recursive: true });
      const file = path.join(dir, emlFileName(new Date(), message.id));
      // Written under another name and renamed: an .eml is on disk whole or not at all, so a
      // run stopped mid-write leaves no message that looks sent ('wx': never overwrite one).
      const partial = `${file}.part`;
      await writeFile(partial, info.message as Buffer, { flag: 'wx' });
      await rename(partial, file);
      return { transport: 'file', location: file };
    },
    async deliveryOf(id) {
      const names = await readdir(dir).catch(() => [] as string[]);
      const name = names.find((n) => n.endsWith(`-${id}.eml`));
      return name === undefined ? undefined : path.join(dir, name);
    },
    close: () => renderer.close(),
  };
}

function mailFields(message: OutgoingEmail) {
  return {
    to: message.to,
    subject: message.subject,
    text: message.text,
    ...(message.html === undefined ? {} : { html: message.html }),
    messageId: `<${message.id}@warmline.local>`,
  };
}

/** `<ISO time>-<id>.eml`, with the time's colons as dashes so the name is safe everywhere. */
function emlFileName(at: Date, id: string): string {
  return `${at.toISOString().replaceAll(':', '-')}-${id}.eml`;
}
