// Imported first by the CLI: its stdout carries exactly one JSON object, so logs stay off.
process.env.LOG_LEVEL ??= 'silent';
