#!/usr/bin/env node
// Builds the package into sdk/dist with the repository's TypeScript (the SDK has no install of its own): tsc,
// then the generated openapi.d.ts, which tsc does not copy since it is a declaration file, beside the declarations
// that import it.
import { execFileSync } from 'node:child_process';
import { copyFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';

const sdk_root = resolve(import.meta.dirname, '..');
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const out_dir = process.argv[2] === '--out' && process.argv[3] !== undefined ? resolve(process.argv[3]) : join(sdk_root, 'dist');
execFileSync(process.execPath, [tsc, '-p', join(sdk_root, 'tsconfig.json'), '--outDir', out_dir], { stdio: 'inherit' });
copyFileSync(join(sdk_root, 'src', 'openapi.d.ts'), join(out_dir, 'openapi.d.ts'));
