// Before each test file loads MikroORM, as the entry points do (src/db/settling-storage.ts).
import '../../src/db/settling-storage';
