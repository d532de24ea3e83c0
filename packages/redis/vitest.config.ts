import { definePackageTest } from '../../config/vitest.ts';

export default definePackageTest();
