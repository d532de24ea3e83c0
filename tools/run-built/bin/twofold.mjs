#!/usr/bin/env node
import { runBuilt } from './run-built.mjs';

runBuilt('twofold', process.argv.slice(2));
