import type { Config } from '../../config';
import { photoSecret } from '../../storage/photo-secret';
import { configurePdfFonts } from './pdf.render';

// The documents' settings, set once by createApp: the signing key of PDF links (the photo links'
// key: PHOTO_URL_SECRET, else the one kept in DATA_DIR), links' base URL, the PDF font, the mail.

export interface DocumentSettings {
  secret: string;
  publicUrl: string | null;
  port: number;
  dataDir: string;
  smtpUrl: string | null;
  mailFrom: string;
}

let current: DocumentSettings | undefined;

export function configureDocuments(config: Config): void {
  configurePdfFonts(config.documents.pdfFont);
  current = { secret: photoSecret(config), publicUrl: config.publicUrl, port: config.port, dataDir: config.dataDir, smtpUrl: config.documents.smtpUrl, mailFrom: config.documents.mailFrom };
}

export function documentSettings(): DocumentSettings {
  if (!current) throw new Error('documents are not configured');
  return current;
}

/** Absolute base of links in documents and mail: PUBLIC_URL, else the request's own. */
export function linkBase(requestBase: string | undefined): string {
  const s = documentSettings();
  return s.publicUrl ?? requestBase ?? `http://localhost:${s.port}`;
}
