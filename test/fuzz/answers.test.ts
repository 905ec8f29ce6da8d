/** Every operation of the AirSign node, through n8n's engine, against fuzzed answers (answers.ts). */
import '../harness';
import { binaryItem, type HarnessInputItem, type RunNodeResult } from '../harness';

import fc from 'fast-check';
import { NodeApiError, NodeOperationError, type INodeParameters } from 'n8n-workflow';
import { beforeAll, describe, expect, it } from 'vitest';

import {
	captureOutput,
	clientCredential,
	fromTemplateParams,
	locator,
	pdf,
	recordSleeps,
	runAirSign,
	serialise,
	type TestContext,
	uploadParams,
	useAirSign,
} from '../nodes/airSign/helpers';
import { ann, blockDoc, jsonMode } from '../nodes/airSign/createSessionParams';
import { offerTemplateParams } from '../nodes/airSign/offerTemplate';
import type { CreateTemplateInput } from '../../sandbox';
import { NODE_OPERATIONS } from '../nodes/airSign/nodeOperations';
import { answerFault } from './answers';
import { announce, checkProperty, count } from './budget';
import { expectCleanMessage } from './values';

const ctx = useAirSign();
beforeAll(() => announce('answers'));

/** The default "Max Wait on Rate Limit" (60 s): no wait may be longer, none negative. */
const MAX_WAIT_MS = 60_000;

/** What one operation needs beyond its resource and operation: its parameters, the sandbox's data. */
interface Invocation {
	params?: (c: TestContext) => INodeParameters;
	input?: () => HarnessInputItem[];
}

// By the node's operations (read from its description below): a new operation fails the property
// until it has an entry.
const sessionId = (c: TestContext, status?: 'pending') => ({
	sessionId: c.sandbox.createSession({ recipients: [ann], ...(status && { status }) }).sessionId,
});
const offer = (c: TestContext, recipients?: CreateTemplateInput['recipients']) =>
	c.sandbox.createTemplate({ name: 'Offer', status: 'active', recipients }).templateId;
const invocations: Record<string, Invocation> = {
	'session.get': { params: (c) => sessionId(c) },
	'session.send': { params: (c) => sessionId(c) },
	'session.sendInvitation': { params: (c) => sessionId(c, 'pending') },
	'session.getMany': {
		params: (c) => {
			for (let i = 0; i < 3; i++) c.sandbox.createSession({ name: `S${i}`, recipients: [ann] });
			return { returnAll: true };
		},
	},
	'session.create': { params: () => jsonMode(blockDoc(['a']), [{ key: 'a', ...ann }]) },
	'session.createFromTemplate': {
		params: (c) => fromTemplateParams(locator(offer(c, [{ key: 'employee', ...ann }])), {}),
	},
	'template.get': { params: (c) => ({ templateId: offer(c) }) },
	'template.getMany': {
		params: (c) => {
			offer(c);
			return { returnAll: true };
		},
	},
	'template.create': { params: () => offerTemplateParams() },
	'file.upload': {
		params: () => uploadParams(),
		input: () => [binaryItem(pdf(2048), { fileName: 'a.pdf', mimeType: 'application/pdf' })],
	},
};

/** Everything a user, a log or the execution store could see of a run. */
function visible(result: RunNodeResult, logs: string): string {
	return [
		JSON.stringify(result.items),
		serialise(result.error),
		serialise((result.error as { cause?: unknown } | undefined)?.cause),
		serialise(result.storedError),
		JSON.stringify(result.runData),
		logs,
	].join('\n');
}

describe('answers, fuzzed: an action fails with a clear error or passes the answer through; nothing secret shows', () => {
	it('every operation of the node has its invocation', () => {
		expect(Object.keys(invocations).sort()).toEqual(NODE_OPERATIONS.map((op) => op.key).sort());
	});

	it('every operation, every kind of answer', async () => {
		const sleeps = recordSleeps(() => 0); // restored when the test ends
		const cases = fc.record({
			invocation: fc.constantFrom(...NODE_OPERATIONS),
			fault: answerFault('/api/v1/'),
			continueOnFail: fc.boolean(),
		});
		await checkProperty(
			'answers: actions',
			fc.asyncProperty(cases, async ({ invocation, fault, continueOnFail }) => {
				ctx.sandbox.reset();
				sleeps.requested.length = 0;
				// Client credentials: n8n fetches a token, which must stay as secret as the client secret.
				ctx.cred = await clientCredential(ctx);
				const { resource, operation, title } = invocation;
				const given = invocations[invocation.key];
				const params = { resource, operation, ...given.params?.(ctx) };
				ctx.sandbox.injectFault(fault);
				const capture = captureOutput();
				let result: RunNodeResult;
				try {
					result = await runAirSign(ctx, params, {
						input: given.input?.(),
						continueOnFail,
					});
				} finally {
					capture.restore();
				}
				const messages = continueOnFail
					? result.items.filter((i) => i.json.error !== undefined).map((i) => i.json.error)
					: result.error
						? [result.error.message]
						: [];
				if (!continueOnFail && result.error) {
					// A clear error is n8n's kind of error, not a crash of the node's code.
					expect(
						result.error instanceof NodeApiError || result.error instanceof NodeOperationError,
						`${title}: ${result.error.name}: ${result.error.message}`,
					).toBe(true);
				}
				for (const message of messages) expectCleanMessage(message, title);
				// Passed through: every output item is a JSON object.
				for (const item of result.items) expect(item.json).toBeTypeOf('object');
				// Waits: from the answer's Retry-After within the option, or the back-off; never negative or endless.
				for (const ms of sleeps.requested) {
					expect(Number.isFinite(ms), `a wait of ${ms} ms`).toBe(true);
					expect(ms).toBeGreaterThanOrEqual(0);
					expect(ms).toBeLessThanOrEqual(MAX_WAIT_MS);
				}
				count(`answers ${fault.kind}`);
				count(messages.length > 0 ? 'failed clearly' : 'passed through');
				if (process.env.FUZZ_DEBUG)
					process.stdout.write(
						`[answers] ${title} ${fault.kind} ${fault.answer?.status ?? ''} → ${messages.join(' | ') || `ok ${result.items.length}`}\n`,
					);
				const stored = (await ctx.env.store.getData(ctx.cred.id)).sessionToken;
				const secrets = [ctx.sandbox.demo.clientSecret, ctx.sandbox.demo.accessToken];
				if (typeof stored === 'string' && stored) secrets.push(stored);
				const haystack = visible(result, capture.text());
				for (const secret of secrets)
					expect(haystack, `${title} shows a secret`).not.toContain(secret);
			}),
		);
	});
});
