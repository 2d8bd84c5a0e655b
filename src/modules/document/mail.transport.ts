import fs from 'node:fs/promises';
import path from 'node:path';
import type { SendMailOptions, Transporter } from 'nodemailer';
import { documentSettings } from './document.settings';

// Where mail goes (docs/documents.md): SMTP_URL's server, else an .eml file per message under
// DATA_DIR/outbox/ (nodemailer's stream transport), so that sending works with nothing installed.

let smtp: { url: string; transport: Transporter } | undefined;

/** nodemailer, loaded with the first message a process sends. */
const nodemailer = () => require('nodemailer') as typeof import('nodemailer');

function smtpTransport(url: string): Transporter {
  if (smtp?.url !== url) smtp = { url, transport: nodemailer().createTransport(url) };
  return smtp.transport;
}

let outboxTransport: Transporter | undefined;
const outbox = () => (outboxTransport ??= nodemailer().createTransport({ streamTransport: true, buffer: true, newline: 'windows' }));

/** Sends one message; resolves to its Message-ID, rejects with the server's (or the disk's) error. */
export async function deliver(message: SendMailOptions, fileStem: string): Promise<string> {
  const s = documentSettings();
  if (s.smtpUrl) return (await smtpTransport(s.smtpUrl).sendMail(message)).messageId;
  const info = (await outbox().sendMail(message)) as unknown as { messageId: string; message: Buffer };
  const dir = path.join(s.dataDir, 'outbox');
  await fs.mkdir(dir, { recursive: true });
  // Written under a temporary name, then renamed: a reader of the outbox never sees half a file.
  const file = path.join(dir, `${fileStem}.eml`);
  await fs.writeFile(`${file}.tmp`, info.message);
  await fs.rename(`${file}.tmp`, file);
  return info.messageId;
}
