import 'reflect-metadata';
import fs from 'node:fs';
import path from 'node:path';
import { printSdl } from './schema';

const file = path.resolve(__dirname, '../../schema/schema.graphql');
fs.writeFileSync(file, printSdl());
console.log(`wrote ${path.relative(process.cwd(), file)}`);
