/** Property-based tests of the other operations' inputs (test/fuzz/inputProperties.ts). */
import '../harness';

import { describeInputs, inSessionsFile } from './inputProperties';

describeInputs('inputs (templates and files)', (op) => !inSessionsFile(op));
