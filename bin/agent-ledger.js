#!/usr/bin/env node
// The CLI entry point. It runs under the Node 24 the project pins (npm puts
// node_modules/.bin first on PATH), which strips TypeScript types natively.
import '../src/cli/main.ts';
