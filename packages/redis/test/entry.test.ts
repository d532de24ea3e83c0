import { describeStableEntry } from '../../../config/stable-entry.ts';
import pkg from '../package.json';
import * as root from '../src/index';

describeStableEntry(pkg, root);
