// Words shaped once per process (docs/documents.md, "Rendering speed"): fontkit's layout of a word
// (glyphs by the font's cmap, GSUB substitutions, GPOS kerning) was a quarter of a PDF's CPU, and
// pdfkit keeps what it shapes only for one document. The words of documents repeat (labels,
// months, amounts, descriptions), so the result is kept per shared font and replayed.
//
// Exactness: fontkit's layout reads one thing besides the font and the word: the code points that
// each glyph object of the document remembers (it keeps those it was first asked for, and two
// characters may share a glyph: Roboto's Δ and ∆). Layout asks the document's font for glyph
// objects (getGlyph) with the code points it wants them to have. A layout is kept only when every
// glyph it got had exactly the code points asked for ("clean": then the result depends on the
// font and the word alone), and it is replayed by making the same getGlyph calls in the same
// order, which gives the document the same glyph objects as the real layout; if any replayed call
// answers a glyph with other code points, the word is shaped for real. Either way the document's
// bytes are the plain path's (test/modules/document/pdf-fonts.spec.ts).
//
// Bounded: at most MAX_WORDS words per font, the oldest forgotten first.

const MAX_WORDS = 4000;

type CodePoints = number[];
interface Glyph {
  id: number;
  codePoints: CodePoints;
}
interface Position {
  xAdvance: number;
  yAdvance: number;
  xOffset: number;
  yOffset: number;
}
interface Run {
  glyphs: Glyph[];
  positions: Position[];
  features: Record<string, boolean>;
  script: string;
  language: string | null;
  direction: string;
}
export interface ShapingFont {
  getGlyph(id: number, codePoints?: CodePoints): Glyph;
  layout(...args: unknown[]): Run;
}

/** A kept layout, in typed arrays (about 0.7 KB a word). */
interface Shaped {
  /** The getGlyph calls of the layout, in order: glyph id, count of code points, the code points. */
  calls: Int32Array;
  /** The run's glyphs, as indexes of the calls that answered them. */
  glyphs: Int32Array;
  /** xAdvance, yAdvance, xOffset, yOffset of each glyph. */
  positions: Float64Array;
  /** The run's features (one object per distinct set, copied for each run). */
  features: Record<string, boolean>;
  script: string;
  language: string | null;
  direction: string;
  /** fontkit's GlyphRun and GlyphPosition classes, from the run this was made of. */
  Run: new (glyphs: Glyph[], features: unknown, script: string, language: string | null, direction: string) => Run;
  Position: new (xAdvance: number, yAdvance: number, xOffset: number, yOffset: number) => Position;
}

/** The distinct feature sets of runs (a few: the shaper's defaults per script). */
const featureSets = new Map<string, Record<string, boolean>>();
function internFeatures(f: Record<string, boolean>): Record<string, boolean> {
  const key = JSON.stringify(f);
  const known = featureSets.get(key);
  if (known) return known;
  const copy = Object.freeze({ ...f });
  if (featureSets.size < 64) featureSets.set(key, copy);
  return copy;
}

const same = (a: CodePoints, b: CodePoints) => a.length === b.length && a.every((c, i) => c === b[i]);

/** The words of one shared font. */
export class ShapingCache {
  private readonly words = new Map<string, Shaped>();

  get size(): number {
    return this.words.size;
  }

  /** fontkit's layout for `doc` (a document's view of the font), through this cache. */
  layout(doc: ShapingFont, base: ShapingFont['layout'], args: unknown[]): Run {
    const [text, features, script, language, direction] = args;
    if (typeof text !== 'string' || script != null || language != null || direction != null) return base.apply(doc, args);
    const key = `${features === undefined ? '' : JSON.stringify(features)}\u0000${text}`;
    const kept = this.words.get(key);
    if (kept) {
      const run = this.replay(doc, kept);
      if (run) return run;
      return base.apply(doc, args);
    }
    return this.record(doc, base, args, key);
  }

  private replay(doc: ShapingFont, s: Shaped): Run | null {
    const got: Glyph[] = [];
    const { calls } = s;
    for (let i = 0; i < calls.length; ) {
      const id = calls[i];
      const codePoints = Array.from(calls.subarray(i + 2, i + 2 + calls[i + 1]));
      i += 2 + codePoints.length;
      const glyph = doc.getGlyph(id, codePoints);
      // Another character drew this glyph first in this document: shape the word for real (the
      // calls made so far are those the real layout makes first, so they change nothing).
      if (!same(glyph.codePoints, codePoints)) return null;
      got.push(glyph);
    }
    const glyphs: Glyph[] = [];
    const positions: Position[] = [];
    const p = s.positions;
    for (let g = 0; g < s.glyphs.length; g++) {
      glyphs.push(got[s.glyphs[g]]);
      positions.push(new s.Position(p[4 * g], p[4 * g + 1], p[4 * g + 2], p[4 * g + 3]));
    }
    const run = new s.Run(glyphs, { ...s.features }, s.script, s.language, s.direction);
    run.positions = positions;
    return run;
  }

  private record(doc: ShapingFont, base: ShapingFont['layout'], args: unknown[], key: string): Run {
    const calls: Array<[number, CodePoints]> = [];
    const answers: Glyph[] = [];
    let clean = true;
    const own = Object.getPrototypeOf(doc) as ShapingFont;
    const getGlyph = (id: number, codePoints: CodePoints = []) => {
      const asked = codePoints.slice();
      const glyph = own.getGlyph.call(doc, id, codePoints);
      calls.push([id, asked]);
      answers.push(glyph);
      if (!glyph || !same(glyph.codePoints, asked)) clean = false;
      return glyph;
    };
    (doc as { getGlyph: unknown }).getGlyph = getGlyph;
    let run: Run;
    try {
      run = base.apply(doc, args);
    } finally {
      delete (doc as { getGlyph?: unknown }).getGlyph;
    }
    const glyphs = run.glyphs.map((g) => answers.indexOf(g));
    if (clean && glyphs.every((i) => i >= 0) && run.positions.length > 0) {
      if (this.words.size >= MAX_WORDS) this.words.delete(this.words.keys().next().value!);
      this.words.set(key, {
        calls: Int32Array.from(calls.flatMap(([id, codePoints]) => [id, codePoints.length, ...codePoints])),
        glyphs: Int32Array.from(glyphs),
        positions: Float64Array.from(run.positions.flatMap((p) => [p.xAdvance, p.yAdvance, p.xOffset, p.yOffset])),
        features: internFeatures(run.features),
        script: run.script,
        language: run.language,
        direction: run.direction,
        Run: run.constructor as Shaped['Run'],
        Position: run.positions[0].constructor as Shaped['Position'],
      });
    }
    return run;
  }
}
