#!/usr/bin/env node
// The npm registry this project installs from serves no packages for other platforms (darwin,
// win32, …): `npm install` then leaves those optional dependencies out of package-lock.json, and
// `npm ci` refuses the lock as out of sync. This adds an entry for each missing optional package,
// marked optional with the os/cpu its name states, so `npm ci` accepts the lock and skips them on
// this platform. Run it after every `npm install` that changes the lock. It completes the
// project's lock and the benchmark peers' (bench/peers/package-lock.json, installed on demand by
// `npm run bench`), or the locks named as arguments.
const fs = require('fs');
const path = require('path');

const ROOT = path.resolve(__dirname, '..');
const files = process.argv.length > 2 ? process.argv.slice(2).map((f) => path.resolve(f)) : [path.join(ROOT, 'package-lock.json'), path.join(ROOT, 'bench/peers/package-lock.json')];
const OS = ['darwin', 'linux', 'win32', 'android', 'freebsd', 'openbsd', 'netbsd', 'sunos', 'aix', 'openharmony', 'wasi'];
const CPU = ['x64', 'arm64', 'arm', 'ia32', 'ppc64', 's390x', 'riscv64', 'loong64', 'mips64el', 'wasm32', 'universal'];

function platformOf(name) {
  const parts = name.split('/').pop().split('-');
  const os = parts.find((p) => OS.includes(p));
  const cpu = parts.find((p) => CPU.includes(p));
  const entry = {};
  if (os) entry.os = [os === 'wasi' ? 'wasi' : os];
  if (cpu === 'wasm32' || os === 'wasi') entry.cpu = ['wasm32'];
  else if (cpu && cpu !== 'universal') entry.cpu = [cpu];
  return entry;
}

for (const file of files) {
  const lock = JSON.parse(fs.readFileSync(file, 'utf8'));
  let added = 0;
  for (const [key, pkg] of Object.entries(lock.packages)) {
    for (const [dep, range] of Object.entries(pkg.optionalDependencies ?? {})) {
      // Resolution as npm does it: nested first, then up to the root node_modules.
      let dir = key;
      let found = false;
      for (;;) {
        const candidate = (dir ? `${dir}/` : '') + `node_modules/${dep}`;
        if (lock.packages[candidate]) {
          found = true;
          break;
        }
        if (!dir) break;
        const i = dir.lastIndexOf('/node_modules/');
        dir = i >= 0 ? dir.slice(0, i) : '';
      }
      if (found) continue;
      const version = String(range).replace(/^[\^~=]/, '');
      lock.packages[`node_modules/${dep}`] = { version, optional: true, ...platformOf(dep) };
      added++;
    }
  }
  fs.writeFileSync(file, JSON.stringify(lock, null, 2) + '\n');
  console.log(`complete-lockfile: ${path.relative(ROOT, file)}: added ${added} optional platform entr${added === 1 ? 'y' : 'ies'}`);
}
