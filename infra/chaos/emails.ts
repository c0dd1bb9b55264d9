import { readFile } from 'node:fs/promises';

/**
 * Which e-mails each effect of the load must cause, counted by what notifications' email_log
 * holds (each row's recipient and subject, and the body of its .eml file), never by template
 * names: the e-mail design is changing and only these numbers should need to follow it.
 *
 * An e-mail belongs to a sign-up when it mentions the new account's e-mail address, and to an
 * order when it mentions the order id. Fewer than expected is an effect lost; the same e-mail
 * (same recipient and subject) twice for one sign-up or order is an effect doubled.
 */
export const EXPECTED_EMAILS = {
  /** A survey sign-up: the welcome to the new user and the sales team's notice. */
  signUp: 2,
  /** A paid package order with a billing e-mail: the receipt and the sales team's notice. */
  packagePaid: 2,
  /** A paid aged-lead order with a billing e-mail: the receipt and the sales team's notice. */
  leadPaid: 2,
} as const;

export interface LoggedEmail {
  commandId: string;
  recipient: string;
  subject: string;
  /** The .eml file for the file transport (the checks run without SMTP_URL). */
  location: string | null;
}

/** The text an e-mail can be recognised by: recipient, subject and decoded body. */
async function searchableText(email: LoggedEmail): Promise<string> {
  let body = '';
  if (email.location && email.location.endsWith('.eml')) {
    try {
      body = decodeEml(await readFile(email.location, 'utf8'));
    } catch {
      body = ''; // no file: only the log row speaks for it
    }
  }
  return `${email.recipient}\n${email.subject}\n${body}`;
}

/**
 * The readable text of a MIME message as nodemailer writes it: every part's body decoded from
 * quoted-printable or base64 (an order id may otherwise be split by a soft line break).
 */
function decodeEml(raw: string): string {
  const text = raw.replace(/\r\n/g, '\n');
  const out: string[] = [];
  // Each part: its headers, a blank line, its body up to the next boundary line.
  const part = /(^|\n)((?:[A-Za-z-]+:[^\n]*\n(?:[ \t][^\n]*\n)*)+)\n([\s\S]*?)(?=\n--[^\n]*\n|\n--[^\n]*--|$)/g;
  for (let match = part.exec(text); match; match = part.exec(text)) {
    const headers = match[2] ?? '';
    const body = match[3] ?? '';
    const encoding = /content-transfer-encoding:\s*([\w-]+)/i.exec(headers)?.[1]?.toLowerCase();
    if (encoding === 'base64') out.push(Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8'));
    else if (encoding === 'quoted-printable') out.push(decodeQuotedPrintable(body));
    else out.push(body);
  }
  return out.join('\n');
}

function decodeQuotedPrintable(body: string): string {
  const joined = body.replace(/=\n/g, '');
  const bytes: number[] = [];
  for (let i = 0; i < joined.length; i += 1) {
    const ch = joined[i]!;
    const hex = joined.slice(i + 1, i + 3);
    if (ch === '=' && /^[0-9A-Fa-f]{2}$/.test(hex)) {
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else {
      bytes.push(...Buffer.from(ch, 'utf8'));
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

export interface EmailTally {
  /** E-mails per marker (order id or sign-up address). */
  count: Map<string, number>;
  /** Markers that got the same e-mail (recipient and subject) more than once, with how many extra. */
  doubled: Map<string, number>;
  /** E-mails that mention no marker of this run (e.g. the first admin's), for the record. */
  unattributed: number;
}

/** Ties each logged e-mail to the markers (order ids, sign-up addresses) it mentions. */
export async function tallyEmails(emails: LoggedEmail[], markers: Set<string>): Promise<EmailTally> {
  const count = new Map<string, number>();
  const seen = new Map<string, number>();
  const doubled = new Map<string, number>();
  let unattributed = 0;
  // Candidates by shape, then kept only when they are markers: no scan of every marker per mail.
  const candidate = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|[\w.+-]+@[\w.-]+/gi;
  for (const email of emails) {
    const text = await searchableText(email);
    const named = new Set((text.match(candidate) ?? []).map((m) => m.toLowerCase().replace(/\.+$/, '')).filter((m) => markers.has(m)));
    // An order's e-mail belongs to that order, even when it also names its buyer's address (a
    // receipt does): two receipts of one buyer for two orders of the same amount are not a double.
    const orders = [...named].filter((m) => !m.includes('@'));
    const found = orders.length > 0 ? new Set(orders) : named;
    if (found.size === 0) unattributed += 1;
    for (const marker of found) {
      count.set(marker, (count.get(marker) ?? 0) + 1);
      const key = `${marker}\n${email.recipient.toLowerCase()}\n${email.subject}`;
      const times = (seen.get(key) ?? 0) + 1;
      seen.set(key, times);
      if (times > 1) doubled.set(marker, (doubled.get(marker) ?? 0) + 1);
    }
  }
  return { count, doubled, unattributed };
}
