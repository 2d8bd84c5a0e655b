import { registerTask } from '../../jobs/engine';
import { resumeImports, runImport } from './import.run';
// The rows an import writes through (the REST table's POST and PUT of each resource).
import { routes } from '../../rest/routes';
import { IMPORT_TASK } from './import.types';

// The import tasks (docs/import-export.md), registered with the engine (src/jobs/engine.ts) when
// this file is loaded: `imports` runs one queued import; `imports-resume` takes over, each minute
// and when a process starts, the imports no live process works (a worker killed mid-import).

export { IMPORT_TASK };
export const IMPORT_RESUME_TASK = 'imports-resume';

registerTask({
  name: IMPORT_TASK,
  async run(orm, data) {
    if (typeof data.uuid === 'string') await runImport(orm, data.uuid, routes);
  },
});

registerTask({
  name: IMPORT_RESUME_TASK,
  cron: '* * * * *',
  runOnStart: true,
  run: (orm) => resumeImports(orm, routes),
});
