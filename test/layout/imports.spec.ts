import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

// The layout shows the architecture (docs/architecture.md): domain values (src/domain), schema and
// field metadata (src/schema), data access (src/data), and the two surfaces (src/rest,
// src/graphql). This walks the import graph of src/ with the TypeScript parser and fails on any
// import cycle, type-only imports included (`import type`, `import { type X }`, `import('./x').X`: a
// type shared by two modules belongs in a small types module both import), and on an import that
// goes against the layers.

const SRC = path.resolve(__dirname, '../../src');

function filesUnder(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const p = path.join(dir, d.name);
    return d.isDirectory() ? filesUnder(p) : /\.ts$/.test(d.name) && !d.name.endsWith('.d.ts') ? [p] : [];
  });
}

/** Each file's imports of other files of src/: all of them, and which of them are type-only (no code runs). */
function importGraph(): Map<string, { all: string[]; typeOnly: Set<string> }> {
  const graph = new Map<string, { all: string[]; typeOnly: Set<string> }>();
  for (const file of filesUnder(SRC)) {
    const source = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest);
    const runtime = new Set<string>();
    const types = new Set<string>();
    const add = (spec: string, typeOnly: boolean) => {
      if (!spec.startsWith('.')) return;
      const base = path.resolve(path.dirname(file), spec);
      const target = [`${base}.ts`, path.join(base, 'index.ts')].find((c) => fs.existsSync(c));
      if (target?.startsWith(SRC)) (typeOnly ? types : runtime).add(target);
    };
    for (const st of source.statements) {
      if (!(ts.isImportDeclaration(st) || ts.isExportDeclaration(st)) || !st.moduleSpecifier || !ts.isStringLiteral(st.moduleSpecifier)) continue;
      const clause = ts.isImportDeclaration(st) ? st.importClause : undefined;
      const named = clause?.namedBindings && ts.isNamedImports(clause.namedBindings) ? clause.namedBindings.elements : undefined;
      const typeOnly =
        (ts.isExportDeclaration(st) && st.isTypeOnly) ||
        !!clause?.isTypeOnly ||
        (!!clause && !clause.name && !!named?.length && named.every((e) => e.isTypeOnly));
      add(st.moduleSpecifier.text, typeOnly);
    }
    // Types named through an import type, `import('./x').X`, anywhere in the file.
    const visit = (node: ts.Node): void => {
      if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) add(node.argument.literal.text, true);
      ts.forEachChild(node, visit);
    };
    visit(source);
    graph.set(file, { all: [...new Set([...runtime, ...types])], typeOnly: new Set([...types].filter((t) => !runtime.has(t))) });
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

/**
 * One cycle through a component, shortest first, as the files it goes through: `a.ts → b.ts
 * →(type) a.ts`, where `→(type)` is a type-only import. The component may hold more cycles;
 * breaking this one shows the next.
 */
function describeCycle(component: string[], graph: ReturnType<typeof importGraph>): string {
  const files = new Set(component.map((f) => path.join(SRC, f)));
  const start = path.join(SRC, component[0]);
  const from = new Map<string, string>();
  const queue = [start];
  while (queue.length && !from.has(start)) {
    const v = queue.shift()!;
    for (const w of graph.get(v)!.all) {
      if (!files.has(w) || from.has(w)) continue;
      from.set(w, v);
      queue.push(w);
    }
  }
  const chain = [start];
  for (let v = from.get(start)!; v !== start; v = from.get(v)!) chain.unshift(v);
  chain.unshift(start);
  const rel = (f: string) => path.relative(SRC, f);
  return chain.map((f, i) => (i === 0 ? rel(f) : `${graph.get(chain[i - 1])!.typeOnly.has(f) ? '→(type)' : '→'} ${rel(f)}`)).join(' ');
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

  it('has no import cycle, type-only imports included', () => {
    const found = cycles(new Map([...graph].map(([f, e]) => [f, e.all])));
    expect(found.map((c) => `${describeCycle(c, graph)}  (${c.length} files in the cycle: ${c.join(', ')})`)).toEqual([]);
  });

  it('finds cycles when there are some (the check itself)', () => {
    const g = new Map([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a']],
      ['d', ['a']],
    ]);
    expect(cycles(g).map((c) => c.length)).toEqual([3]);
    const file = (name: string) => path.join(SRC, `${name}.ts`);
    const typed = new Map([
      [file('a'), { all: [file('b')], typeOnly: new Set<string>() }],
      [file('b'), { all: [file('a')], typeOnly: new Set([file('a')]) }],
    ]);
    const [found] = cycles(new Map([...typed].map(([f, e]) => [f, e.all])));
    expect(describeCycle(found, typed)).toBe('a.ts → b.ts →(type) a.ts');
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
