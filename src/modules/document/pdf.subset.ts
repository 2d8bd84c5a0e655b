// The font subsets' fixed tables encoded once per font (docs/documents.md, "Rendering speed").
//
// fontkit's TrueType subset copies the font's `fpgm`, `prep` and `cvt ` tables whole into every
// embedded subset, but re-encodes them value by value through `restructure` for every PDF (and
// sizes them five times over while laying out the file): about 2 ms of an 11 ms render for
// Roboto's two styles. Those tables do not depend on the document's glyphs, so their encoded
// bytes are the same in every PDF. Here the first subset of a font is encoded as fontkit does and
// those tables' bytes are kept; later subsets are encoded with the three tables empty, and the
// kept bytes are put back in their place in the file's table directory. The result is the file
// fontkit writes, byte for byte (test/modules/document/pdf-fonts.spec.ts compares every PDF with
// the plain path, which never comes here).
//
// The sfnt layout fontkit writes: a 12-byte header, then 16 bytes per table (tag, checksum 0,
// offset, length), then the tables' data one after the other in the directory's order, with no
// padding. If a file is ever not laid out so, it is left as fontkit wrote it (and its tables are
// not kept).

/** The tables copied whole from the font into every subset (fontkit's TTFSubset.encode). */
const FIXED = ['cvt ', 'prep', 'fpgm'];

interface Entry {
  tag: string;
  offset: number;
  length: number;
}

/** The table directory of an sfnt file, or null when the tables are not back to back in its order. */
function directory(file: Buffer): Entry[] | null {
  if (file.length < 12) return null;
  const count = file.readUInt16BE(4);
  let next = 12 + 16 * count;
  if (file.length < next) return null;
  const entries: Entry[] = [];
  for (let i = 0; i < count; i++) {
    const at = 12 + 16 * i;
    const entry = { tag: file.toString('latin1', at, at + 4), offset: file.readUInt32BE(at + 8), length: file.readUInt32BE(at + 12) };
    if (entry.offset !== next) return null;
    next += entry.length;
    entries.push(entry);
  }
  return next === file.length ? entries : null;
}

/** The fixed tables' bytes in a subset encoded by fontkit, or null when its layout is not the expected one. */
function fixedTables(file: Buffer): Map<string, Buffer> | null {
  const entries = directory(file);
  if (!entries) return null;
  const kept = new Map<string, Buffer>();
  for (const e of entries) if (FIXED.includes(e.tag)) kept.set(e.tag, Buffer.from(file.subarray(e.offset, e.offset + e.length)));
  return kept;
}

/** The file with the kept bytes in place of its empty fixed tables, or null when it is not laid out as expected. */
function withFixedTables(file: Buffer, kept: Map<string, Buffer>): Buffer | null {
  const entries = directory(file);
  if (!entries) return null;
  const head = 12 + 16 * entries.length;
  const parts = entries.map((e) => {
    const bytes = kept.get(e.tag);
    if (bytes && e.length !== 0) return null;
    return bytes ?? file.subarray(e.offset, e.offset + e.length);
  });
  if (parts.some((p) => !p) || entries.filter((e) => kept.has(e.tag)).length !== kept.size) return null;
  const out = Buffer.alloc(head + parts.reduce((n, p) => n + p!.length, 0));
  file.copy(out, 0, 0, head);
  let offset = head;
  parts.forEach((p, i) => {
    out.writeUInt32BE(offset, 12 + 16 * i + 8);
    out.writeUInt32BE(p!.length, 12 + 16 * i + 12);
    offset += p!.copy(out, offset);
  });
  return out;
}

/** What a font keeps of its subsets: the fixed tables' bytes once learnt, and whether they could be. */
export interface FixedTables {
  kept: Map<string, Buffer> | null;
  failed: boolean;
}

type Subset = { font: Record<string, unknown>; encode(): Uint8Array };

/** An empty value of a fixed table (every list of it empty): encodes to no bytes. */
function emptied(table: unknown): unknown {
  return Object.fromEntries(Object.entries(table as Record<string, unknown>).map(([k, v]) => [k, Array.isArray(v) ? [] : v]));
}

/**
 * Makes a document's TrueType subset encode with the font's kept fixed tables. The font object is
 * the document's own view (pdf.fonts.ts): the empty tables are set on it only for the time of the
 * encode, which is synchronous.
 */
export function keepFixedTables(subset: Subset, store: FixedTables): void {
  const encode = subset.encode;
  subset.encode = function encodeKept(this: Subset): Uint8Array {
    if (store.failed) return encode.call(this);
    if (!store.kept) {
      const file = encode.call(this);
      const kept = fixedTables(Buffer.from(file.buffer, file.byteOffset, file.length));
      if (kept) store.kept = kept;
      else store.failed = true;
      return file;
    }
    const font = this.font;
    for (const tag of store.kept.keys()) Object.defineProperty(font, tag, { value: emptied(font[tag]), configurable: true });
    let file: Uint8Array;
    try {
      file = encode.call(this);
    } finally {
      for (const tag of store.kept.keys()) delete font[tag];
    }
    const out = withFixedTables(Buffer.from(file.buffer, file.byteOffset, file.length), store.kept);
    if (out) return out;
    // Not laid out as expected: fontkit's own encode, from now on for this font.
    store.failed = true;
    return encode.call(this);
  };
}
