/**
 * n8n-workflow runs parameter regular expressions in a vm with a 250 ms wall-clock timeout, which a
 * loaded machine can outlast ("Regular expression execution timed out"): the tests use a native
 * engine instead, with the same results and no watchdog.
 */
import type { RegexEngine } from 'n8n-workflow';

import { engineRequire } from './engine';

const { setSafeRegexEngine } = engineRequire('n8n-workflow') as {
	setSafeRegexEngine: (engine: RegexEngine) => void;
};
const withGlobal = (flags = '') => (flags.includes('g') ? flags : `${flags}g`);

setSafeRegexEngine({
	exec: (pattern, input, flags) => new RegExp(pattern, flags).exec(input),
	test: (pattern, input, flags) => new RegExp(pattern, flags).test(input),
	replace: (pattern, input, flags, replacement) =>
		input.replace(new RegExp(pattern, flags), replacement),
	matchAll: (pattern, input, flags) =>
		Array.from(input.matchAll(new RegExp(pattern, withGlobal(flags)))),
	split: (pattern, input, flags) => input.split(new RegExp(pattern, flags)),
});
