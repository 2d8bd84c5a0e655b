import type { DocumentView } from '../../src/modules/document/document.view';

// Document views for the PDF renderer's tests (test/modules/document/pdf-fonts.spec.ts,
// pdf-worker.spec.ts): the same views on every render path, whose bytes must agree.

export function view(number: string, descriptions: string[], over: Partial<DocumentView> = {}): DocumentView {
  return {
    kind: 'invoice',
    uuid: '00000000-0000-4000-8000-000000000001',
    companyUuid: '00000000-0000-4000-8000-000000000002',
    number,
    updatedAt: '2026-11-20T10:00:00.000Z',
    company: { name: 'Ζωή Plumbing', address: ['1 Main St', 'Springfield, IL 62701'], phone: '(217) 555-0100', email: 'office@acme.example' },
    customer: { name: 'Łukasz Иван', companyName: 'Ζωή Holdings', address: ['12 Elm St'], email: 'lukasz@example.com' },
    location: { name: 'North shop', address: ['3 Oak St'] },
    fields: { document: [], job: [], customer: [], location: [] },
    dates: [['Issue date', '2026-11-20'], ['Due date', '2027-01-31']],
    lines: descriptions.map((description, i) => ({ description, quantity: 1 + (i % 3), unitPriceCents: 1250 + i, amountCents: (1250 + i) * (1 + (i % 3)) })),
    subtotalCents: 123450,
    adjustments: [['Discount', -1000]],
    taxRate: 8.25,
    taxByRate: [],
    taxCents: 10185,
    totalCents: 132635,
    status: 'Pending',
    invoice: { payments: [{ date: '2026-11-21', number: 'PAY-0001', method: 'Check #1001', amountCents: 50000 }], paidCents: 50000, balanceCents: 82635 },
    notes: 'Спасибо! Ευχαριστώ!',
    ...over,
  };
}

export const twenty = view('INV-0020', Array.from({ length: 20 }, (_, i) => `Part ${i + 1}: copper fitting ¾″`));
export const long = view('INV-0500', Array.from({ length: 500 }, (_, i) => `Part ${i + 1}`));
// Roboto draws U+0394 (Greek Delta) and U+2206 (increment) with one glyph, as U+03A9 (Omega) and
// U+2126 (ohm): a glyph remembers the character it was first drawn for, which becomes the text
// of the PDF, so a glyph object shared between documents would make one document's Δ read ∆.
export const greek = view('INV-0394', ['\u0394 valve, \u03a9 resistor', 'Ζωή, Иван, Łukasz']);
export const symbols = view('INV-2206', ['\u2206 pressure test, 10 k\u2126', '\u2126 meter'], { notes: null, invoice: { payments: [], paidCents: 0, balanceCents: 132635 } });
// Both characters of that glyph in one document, in both orders, after the other documents have
// shaped these words with the glyph drawn for the other one (pdf.shaping.ts replays none of them).
export const mixed = view('INV-0395', ['\u2206 then', '\u0394 valve, \u03a9 resistor', '\u2206 pressure test, 10 k\u2126']);
export const mixedBack = view('INV-0396', ['\u0394 then', '\u2206 pressure test, 10 k\u2126', '\u0394 valve, \u03a9 resistor']);
export const estimate: DocumentView = { ...view('EST-0007', ['Water heater install (Better)', 'Haul away']), kind: 'estimate', dates: [['Created', '2026-11-20'], ['Valid until', '2099-03-01']], invoice: undefined, estimate: { pricingType: 'tiered', selectedTier: 'better', tiers: [], acceptance: null } };
export const empty = view('INV-0000', [], { notes: null, location: null });
