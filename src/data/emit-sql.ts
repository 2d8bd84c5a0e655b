import 'reflect-metadata';
import fs from 'node:fs';
import path from 'node:path';
import { MikroORM } from '@mikro-orm/postgresql';
import { ormOptions } from '../db/orm';
import { readModelStatements, sqlFile } from './queries';

// `npm run sql`: writes src/data/queries/<table>.sql, every statement the read model builds
// (src/data/queries.ts), from the entities' metadata alone (no database is contacted).

export const QUERIES_DIR = path.resolve(__dirname, 'queries');

/** The files npm run sql writes: name → text. */
export async function sqlFiles(): Promise<Map<string, string>> {
  const orm = await MikroORM.init({ ...ormOptions('postgres://localhost/none'), connect: false });
  try {
    const em = orm.em.fork();
    return new Map([...readModelStatements(em)].map(([table, statements]) => [`${table}.sql`, sqlFile(table, statements)]));
  } finally {
    await orm.close();
  }
}

if (require.main === module) {
  void sqlFiles().then((files) => {
    fs.mkdirSync(QUERIES_DIR, { recursive: true });
    for (const f of fs.readdirSync(QUERIES_DIR)) if (f.endsWith('.sql') && !files.has(f)) fs.unlinkSync(path.join(QUERIES_DIR, f));
    for (const [name, text] of files) fs.writeFileSync(path.join(QUERIES_DIR, name), text);
    console.log(`wrote ${files.size} files under ${path.relative(process.cwd(), QUERIES_DIR)}`);
  });
}
