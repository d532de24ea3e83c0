#!/usr/bin/env node
import { runBuilt } from './run-built.mjs';

runBuilt('everything-server', process.argv.slice(2));
