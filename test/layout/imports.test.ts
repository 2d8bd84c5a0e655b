import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

// The layout shows the architecture (docs/architecture.md): domain values (src/domain), schema and
// field metadata (src/schema), data access (src/data), and the two surfaces (src/rest,
// src/graphql). This walks the import graph of src/ with the TypeScript parser (imports that
// run, not `import type`) and fails on any import cycle, and on an import that goes against the layers.

const SRC = path.resolve(__dirname, '../../src');

function filesUnder(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const p = path.join(dir, d.name);
    return d.isDirectory() ? filesUnder(p) : /\.ts$/.test(d.name) && !d.name.endsWith('.d.ts') ? [p] : [];
  });
}

/** Each file's imports of other files of src/: those that run (`runtime`) and all of them. */
function importGraph(): Map<string, { runtime: string[]; all: string[] }> {
  const graph = new Map<string, { runtime: string[]; all: string[] }>();
  for (const file of filesUnder(SRC)) {
    const source = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest);
    const edges = { runtime: [] as string[], all: [] as string[] };
    for (const st of source.statements) {
      if (!(ts.isImportDeclaration(st) || ts.isExportDeclaration(st)) || !st.moduleSpecifier || !ts.isStringLiteral(st.moduleSpecifier)) continue;
      const spec = st.moduleSpecifier.text;
      if (!spec.startsWith('.')) continue;
      const base = path.resolve(path.dirname(file), spec);
      const target = [`${base}.ts`, path.join(base, 'index.ts')].find((c) => fs.existsSync(c));
      if (!target || !target.startsWith(SRC)) continue;
      const clause = ts.isImportDeclaration(st) ? st.importClause : undefined;
      const named = clause?.namedBindings && ts.isNamedImports(clause.namedBindings) ? clause.namedBindings.elements : undefined;
      const typeOnly =
        (ts.isExportDeclaration(st) && st.isTypeOnly) ||
        !!clause?.isTypeOnly ||
        (!!clause && !clause.name && !!named?.length && named.every((e) => e.isTypeOnly));
      edges.all.push(target);
      if (!typeOnly) edges.runtime.push(target);
    }
    graph.set(file, edges);
  }
  return graph;
}

/** The cycles of a graph (its strongly connected components of more than one file, or a file importing itself). */
function cycles(graph: Map<string, string[]>): string[][] {
  let index = 0;
  const stack: string[] = [];
  const on = new Set<string>();
  const idx = new Map<string, number>();
  const low = new Map<string, number>();
  const out: string[][] = [];
  const visit = (v: string) => {
    idx.set(v, index);
    low.set(v, index++);
    stack.push(v);
    on.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!idx.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v)!, idx.get(w)!));
    }
    if (low.get(v) === idx.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        on.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1 || (graph.get(v) ?? []).includes(v)) out.push(component.map((f) => path.relative(SRC, f)).sort());
    }
  };
  for (const v of graph.keys()) if (!idx.has(v)) visit(v);
  return out;
}

const folderOf = (file: string) => path.relative(SRC, file).split(path.sep)[0].replace(/\.ts$/, '');

/** What each layer may import (any import, types included), besides itself. */
const ALLOWED: Record<string, readonly string[]> = {
  domain: ['errors'],
  errors: [],
  schema: ['domain', 'errors'],
  data: ['domain', 'schema', 'errors', 'modules', 'db'],
};
/** The surfaces never import each other; nothing below them imports them. */
const SURFACES = ['rest', 'graphql'];

describe('the import graph of src/', () => {
  const graph = importGraph();

  it('has no file over 300 lines', () => {
    const long = [...graph.keys()].map((f) => [path.relative(SRC, f), fs.readFileSync(f, 'utf8').split('\n').length - 1] as const).filter(([, n]) => n > 300);
    expect(long).toEqual([]);
  });

  it('has no import cycle', () => {
    expect(cycles(new Map([...graph].map(([f, e]) => [f, e.runtime])))).toEqual([]);
  });

  it('finds cycles when there are some (the check itself)', () => {
    const g = new Map([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a']],
      ['d', ['a']],
    ]);
    expect(cycles(g).map((c) => c.length)).toEqual([3]);
  });

  it('goes one way between the layers: domain ← schema ← data ← surfaces, and the surfaces apart', () => {
    const wrong: string[] = [];
    for (const [file, { all }] of graph) {
      const from = folderOf(file);
      for (const target of all) {
        const to = folderOf(target);
        if (to === from) continue;
        const allowed = ALLOWED[from];
        if (allowed && !allowed.includes(to)) wrong.push(`${path.relative(SRC, file)} → ${path.relative(SRC, target)}`);
        if (SURFACES.includes(to) && !['app', 'modules', ...SURFACES.filter((s) => s === from)].includes(from)) wrong.push(`${path.relative(SRC, file)} → ${path.relative(SRC, target)}`);
      }
    }
    expect(wrong).toEqual([]);
  });
});
