import fs from 'node:fs';
import path from 'node:path';
import { CUSTOMER_BY_ID, CUSTOMER_ROW, GQL_INVOICE_ROW, LIVE, listSql, REST_INVOICE_ROW } from '../../bench/baseline-sql';
import { QUERIES_DIR } from '../../src/data/emit-sql';
import { listSql as readModelListSql } from '../../src/data/list';
import { liveWhere, normalizeSql, parseSqlFile } from '../../src/data/queries';
import { Invoice } from '../../src/modules/invoice/invoice.entity';
import { useTestApp } from '../helpers/app';

// The raw baseline of the benchmark (bench/baseline.ts) runs the statements the server runs: its
// list statements are the committed ones of the read model (src/data/queries/), up to the
// parameter style ($n for ?) and identifier quotes; the GraphQL page's reads fewer columns of the
// same statement.

const t = useTestApp();

/** A statement as compared: $n as ?, identifiers unquoted, whitespace collapsed. */
const plain = (sql: string) => normalizeSql(sql.replace(/\$\d+/g, '?').replace(/"/g, ''));
/** Its skeleton: each JSON array of columns as `…` (which columns a page reads is the prefetch's choice). */
const skeleton = (sql: string) =>
  plain(sql)
    .replace(/json_build_array\(((\(\w+\.\w+\)::text|\w+\.\w+)(, )?)+/g, 'json_build_array(…')
    // Columns after a formula (an invoice's custom fields after its "today"), as well.
    .replace(/(, \w+\.\w+)+\)/g, ')');

function committed(table: string, name: string): string {
  const found = parseSqlFile(fs.readFileSync(path.join(QUERIES_DIR, `${table}.sql`), 'utf8')).find((s) => s.name.startsWith(name));
  if (!found) throw new Error(`${table}.sql has no statement "${name}"`);
  return found.sql;
}

describe('the bench baseline\'s list statements', () => {
  it('are the committed statements of the read model', () => {
    expect(plain(listSql('customers', LIVE, CUSTOMER_ROW, 2, false))).toBe(plain(committed('customers', 'list: ')));
    expect(plain(listSql('customers', LIVE, CUSTOMER_ROW, 2, true))).toBe(plain(committed('customers', 'list, a page from row 1000')));
    // A search (any filter): the total remembered under the same change count.
    expect(plain(listSql('customers', LIVE, CUSTOMER_ROW, 2, false, true))).toBe(plain(committed('customers', 'list with a filter')));
    expect(plain(listSql('invoices', LIVE, REST_INVOICE_ROW, 2, false))).toBe(plain(committed('invoices', 'list with its customer')));
  });

  it('the one-customer read is the committed statement of readActive', () => {
    expect(plain(CUSTOMER_BY_ID)).toBe(plain(committed('customers', 'read one live record by uuid')));
  });

  it('the GraphQL page is the read model\'s list with its customer and payments, fewer columns read', () => {
    const em = t.orm.em.fork();
    const meta = em.getMetadata().get('Invoice');
    const server = readModelListSql(em, Invoice, liveWhere(meta), {
      kept: 'live',
      related: [{ kind: 'one', prop: 'customer' }, { kind: 'children', entity: em.getMetadata().get('Payment').class, prop: 'invoice' }],
    });
    expect(skeleton(listSql('invoices', LIVE, GQL_INVOICE_ROW, 2, false))).toBe(skeleton(server));
    // Both relations' subqueries are the committed ones.
    expect(skeleton(server)).toContain(skeleton(committed('invoices', 'list with its customer')).split('json_build_array((select ')[1].split(')))')[0]);
  });
});
