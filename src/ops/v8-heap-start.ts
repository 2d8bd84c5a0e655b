import { tuneHeap } from './v8-heap';

// Imported first by the entry points (src/main.ts, src/worker.ts), before the rest of the server
// is loaded: see src/ops/v8-heap.ts.
tuneHeap();
