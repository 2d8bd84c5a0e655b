import fs from 'node:fs';
import path from 'node:path';
import { ormOptions } from './src/db/orm';
import { urlFor } from './src/db/embedded';

// For the MikroORM CLI: DATABASE_URL, else the embedded database that `npm start` is running.
function url(): string {
  if (process.env.DATABASE_URL) return process.env.DATABASE_URL;
  const state = path.resolve(process.env.DATA_DIR ?? '.data', 'embedded-postgres.json');
  if (!fs.existsSync(state)) throw new Error('Set DATABASE_URL, or start the server (npm start) so the embedded database runs');
  return urlFor(JSON.parse(fs.readFileSync(state, 'utf8')).port, 'field_service_crm');
}

export default ormOptions(url());
