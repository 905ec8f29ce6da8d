/** Property-based tests of the session operations' inputs (test/fuzz/inputProperties.ts). */
import '../harness';

import { describeInputs, inSessionsFile } from './inputProperties';

describeInputs('inputs (sessions)', inSessionsFile);
