import { DOCUMENT_FILE_KINDS } from '../modules/document/document-files.route';
import { DOCUMENT_FILES_PATH, PDF_LINK_TTL_SECONDS } from '../modules/document/document.service';
import { cap, errorResponses } from './openapi-operations';
import type { Schema, Schemas } from './openapi-schemas';

// The signed PDF links (GraphQL `pdfUrl`), served outside the route table: no API key, the
// signature in the query is the credential, so they are documented without security and with
// neither 401 nor the key's RateLimit headers.

const uuid = (name: string, description: string): Schema => ({ name, in: 'path', required: true, description, schema: { type: 'string', format: 'uuid' } });
const HEADERS = { 'X-Request-Id': { $ref: '#/components/headers/X-Request-Id' } };

/** The path items of the signed PDF links, by path. */
export function documentFilePaths(schemas: Schemas): Record<string, Record<string, Schema>> {
  const paths: Record<string, Record<string, Schema>> = {};
  for (const [segment, kind] of Object.entries(DOCUMENT_FILE_KINDS)) {
    const fileHeaders = { ...HEADERS, ETag: { $ref: '#/components/headers/ETag' }, 'Cache-Control': { description: 'private, no-cache', schema: { type: 'string' } } };
    paths[`${DOCUMENT_FILES_PATH}/${segment}/{company_uuid}/{${kind}_uuid}.pdf`] = {
      get: {
        tags: [cap(segment)],
        summary: `The ${kind} as a PDF through a signed link (no API key)`,
        description:
          `The link of GraphQL's \`${cap(kind)}.pdfUrl\`, valid ${PDF_LINK_TTL_SECONDS / 3600} hour from when it was made: the same file as ` +
          `\`GET /api/v1/${segment}/{uuid}/pdf\`, for a browser or a mail client that holds no key. A tampered, expired or unknown link, ` +
          `or a deleted ${kind}, is 404.`,
        operationId: `get${cap(kind)}PdfFile`,
        // The signature in the query is the credential: no API key is asked for.
        security: [],
        parameters: [
          uuid('company_uuid', `The company of the ${kind}`),
          uuid(`${kind}_uuid`, `The ${kind}`),
          { name: 'expires', in: 'query', required: true, description: 'When the link stops working, in Unix seconds', schema: { type: 'string', pattern: '^\\d{1,12}$' } },
          { name: 'sig', in: 'query', required: true, description: 'The link\'s signature (base64url HMAC-SHA256 made by the server)', schema: { type: 'string' } },
          { name: 'If-None-Match', in: 'header', required: false, description: 'The ETag last read: 304 without a body while it is current', schema: { type: 'string' } },
        ],
        responses: {
          '200': { description: 'The PDF', headers: fileHeaders, content: { 'application/pdf': { schema: { type: 'string', format: 'binary' } } } },
          '304': { description: 'Not modified: If-None-Match holds the current ETag', headers: fileHeaders },
          ...errorResponses(['NOT_FOUND', 'SERVICE_UNAVAILABLE', 'INTERNAL'], schemas, false),
        },
      },
    };
  }
  return paths;
}
