/**
 * n8n-workflow runs parameter regular expressions (a resource locator's validation, among others)
 * in a vm with a 250 ms wall-clock timeout. On a loaded machine a garbage collection or a
 * descheduled thread can outlast it and fail a test that has nothing to do with time ("Regular
 * expression execution timed out", seen on the n8n 1.x engine under load). The tests use n8n's own
 * native engine instead: the same expressions and results, without the watchdog.
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
