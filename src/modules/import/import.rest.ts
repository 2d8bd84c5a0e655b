import busboy from 'busboy';
import type { Request } from 'express';
import { AppError, ErrorDetail } from '../../errors/app-error';
import { queryToInput } from '../../rest/case-map';
import { restFieldsOf } from '../../schema/fields';
import { validateInput } from '../../schema/validation';
import { cleanFileName } from '../../storage/staging';
import { IMPORT_MAX_BYTES, IMPORT_MAX_ROWS, stageImportFile } from './import.file';
import type { ImportUpload } from './import.service';
import { ImportCreateInput } from './import.types';
import { promises as fs } from 'node:fs';

// POST /api/v1/imports: a multipart/form-data body with the file (`file`) and the options as text
// fields (docs/import-export.md). The file streams to a staging file as it arrives.

const TEXT_FIELDS = restFieldsOf(ImportCreateInput).map((f) => f.restName);

export const IMPORT_MULTIPART_FIELDS: Record<string, string | Record<string, unknown>> = {
  file: { type: 'string', format: 'binary', description: `CSV (a header; delimiter , ; or tab, detected; a BOM and quoted newlines accepted) or NDJSON; at most ${IMPORT_MAX_BYTES} bytes and ${IMPORT_MAX_ROWS} rows` },
  resource: { type: 'string', enum: ['customers', 'locations', 'jobs', 'invoices', 'payments'] },
  mode: { type: 'string', enum: ['create', 'upsert'], default: 'create' },
  match_on: 'upsert: email (customers), uuid, or external_id:<source>; default uuid',
  dry_run: { type: 'boolean', default: false },
  all_or_nothing: { type: 'boolean', default: false },
  mapping: 'JSON: {"<file column>": "<field>" or null}',
};

/** The options and the staged file of a multipart import request; 400 naming every bad field. */
export function receiveImport(req: Request): Promise<{ input: ImportCreateInput; upload: ImportUpload }> {
  if (!req.is('multipart/form-data')) return Promise.reject(AppError.field('body', 'must be sent as Content-Type: multipart/form-data'));
  return new Promise((resolve, reject) => {
    const fields: Record<string, string> = {};
    const details: ErrorDetail[] = [];
    const fail = (field: string, message: string) => details.push({ field, message: `${field} ${message}` });
    let staged: Promise<{ path: string; size: number } | null> | null = null;
    let fileName: string | null = null;
    let bb: busboy.Busboy;
    try {
      bb = busboy({ headers: req.headers, limits: { files: 1, fileSize: IMPORT_MAX_BYTES + 1, fields: 20, fieldSize: 64 * 1024 } });
    } catch {
      reject(AppError.field('body', 'is not a valid multipart/form-data body'));
      return;
    }
    bb.on('file', (name, stream, info) => {
      stream.on('error', () => undefined);
      if (name !== 'file' || staged) {
        fail(name, name === 'file' ? 'is given more than once' : 'is not a known field (the file goes in file)');
        stream.resume();
        return;
      }
      fileName = cleanFileName(info.filename);
      staged = stageImportFile(stream, 'file').catch((err) => {
        stream.resume();
        if (err instanceof AppError && err.details) details.push(...err.details);
        else fail('file', 'could not be received');
        return null;
      });
    });
    bb.on('field', (name, value, info) => {
      if (!TEXT_FIELDS.includes(name)) fail(name, 'is not a known field');
      else if (name in fields) fail(name, 'is given more than once');
      else if (info.valueTruncated) fail(name, 'is too long');
      else fields[name] = value;
    });
    bb.on('filesLimit', () => fail('file', 'is given more than once'));
    let finished = false;
    const finish = async (broken: boolean) => {
      if (finished) return;
      finished = true;
      const file = staged ? await staged : null;
      const discard = () => (file ? fs.rm(file.path, { force: true }) : Promise.resolve());
      if (broken) fail('body', 'is not a valid multipart/form-data body');
      if (!staged && !details.length) fail('file', 'is required');
      try {
        if (details.length) throw AppError.validation(details);
        // An empty form field means "not given" (HTML forms send empty inputs).
        const sent: Record<string, unknown> = Object.fromEntries(Object.entries(fields).filter(([, v]) => v.trim() !== ''));
        const mapping = sent.mapping;
        delete sent.mapping;
        const input = queryToInput(ImportCreateInput, sent);
        if (mapping !== undefined) {
          try {
            input.mapping = JSON.parse(mapping as string) as Record<string, unknown>;
          } catch {
            throw AppError.field('mapping', 'must be a JSON object');
          }
        }
        await validateInput(input, 'rest');
        resolve({ input, upload: { field: 'file', fileName, stage: async () => file! } });
      } catch (err) {
        await discard();
        reject(err);
      }
    };
    bb.on('close', () => void finish(false));
    bb.on('error', () => {
      req.unpipe(bb);
      req.resume();
      void finish(true);
    });
    req.pipe(bb);
  });
}
