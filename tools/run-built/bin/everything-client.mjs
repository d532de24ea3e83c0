#!/usr/bin/env node
import { runBuilt } from './run-built.mjs';

runBuilt('everything-client', process.argv.slice(2));
