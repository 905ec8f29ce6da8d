/**
 * The input properties' machinery: an operation's parameters, each fed per item from the item's
 * JSON by an expression (as a workflow maps them), values drawn valid, rule-breaking or junk, run
 * through n8n's engine against the sandbox; then every item's outcome and every request judged.
 */
import '../harness';
import { runNode, type HarnessInputItem, type RunNodeResult } from '../harness';

import fc from 'fast-check';
import type { IDataObject, INodeExecutionData, INodeParameters } from 'n8n-workflow';
import { expect } from 'vitest';

import { AirSign } from '../../nodes/AirSign/AirSign.node';
import type { RequestLogEntry, Sandbox } from '../../sandbox';
import type { TestContext } from '../nodes/airSign/helpers';
import { count } from './budget';
import { expectCleanMessage, junk } from './values';

/** A value resolved against the case's fixtures when the case runs (IDs the sandbox makes). */
export interface Ref {
	$ref: string;
	/** How the ID is written: as is, upper case, padded with spaces, inside a link. */
	form?: 'plain' | 'upper' | 'spaced' | 'url';
}
export const ref = (name: string, forms: Array<NonNullable<Ref['form']>> = ['plain']) =>
	fc.constantFrom(...forms).map((form): Ref => ({ $ref: name, form }));

export type Fixtures = Record<string, string[]>;

/** One parameter: where it sits, what names it in a message, and its three kinds of values. */
export interface Slot {
	key: string;
	/** What an error about it must say (its display name). */
	label: RegExp;
	/** Puts the expression (or, for binary slots, nothing) into the node's parameters. */
	place: (params: INodeParameters, expression: string) => void;
	valid: fc.Arbitrary<unknown>;
	/** Values that break a documented rule: refused before any request, naming the parameter. */
	invalid?: fc.Arbitrary<unknown>;
	/** Values of unknown validity: success, or a clear error (default: values.ts's junk()). */
	junk?: fc.Arbitrary<unknown>;
	/** Binary slots: the value becomes the item's binary data (this) instead of JSON. */
	binary?: (value: unknown) => NonNullable<HarnessInputItem['binary']>;
}

/** An operation whose every successful item costs exactly one request. */
export interface OperationUnderTest {
	name: string;
	params: INodeParameters;
	slots: Slot[];
	/** Sandbox state the valid values refer to, `items` long where one per item is needed. */
	setup?: (sandbox: Sandbox, items: number) => Fixtures | Promise<Fixtures>;
	/** Scopes the credential's token needs beyond the demo token's (a token issued per case). */
	scopes?: string[];
	/** Checks a successful item's output (no output may carry a rule-breaking value). */
	checkOutput?: (output: IDataObject[], values: IDataObject) => void;
}

export type ValueKind = 'valid' | 'invalid' | 'junk';
export interface ItemPlan {
	/** Every slot's value for this item. */
	values: Record<string, unknown>;
	/** The one slot whose value was drawn invalid or junk (none: all valid). */
	perturbed?: { key: string; kind: ValueKind };
}
export interface CasePlan {
	items: ItemPlan[];
	continueOnFail: boolean;
}

/** A case: 1 to 3 items, each with every slot valid but at most one invalid or junk. */
export function casePlan(op: OperationUnderTest): fc.Arbitrary<CasePlan> {
	const validValues = fc.record(
		Object.fromEntries(op.slots.map((slot) => [slot.key, slot.valid])) as Record<
			string,
			fc.Arbitrary<unknown>
		>,
	);
	const perturbations = op.slots.flatMap((slot) => [
		...(slot.invalid
			? [slot.invalid.map((value) => ({ key: slot.key, kind: 'invalid' as const, value }))]
			: []),
		(slot.junk ?? junk()).map((value) => ({ key: slot.key, kind: 'junk' as const, value })),
	]);
	const item = fc.tuple(validValues, fc.option(fc.oneof(...perturbations), { freq: 3 })).map(
		([values, change]): ItemPlan =>
			change === null
				? { values }
				: {
						values: { ...values, [change.key]: change.value },
						perturbed: { key: change.key, kind: change.kind },
					},
	);
	return fc.record({
		items: fc.array(item, { minLength: 1, maxLength: 3 }),
		continueOnFail: fc.boolean(),
	});
}

function resolve(value: unknown, fixtures: Fixtures, itemIndex: number): unknown {
	if (Array.isArray(value)) return value.map((entry) => resolve(entry, fixtures, itemIndex));
	if (value === null || typeof value !== 'object') return value;
	if ('$ref' in value) {
		const { $ref, form } = value as Ref;
		const list = fixtures[$ref];
		if (!list?.length) throw new Error(`fixture ${$ref} missing`);
		const id = list[itemIndex % list.length];
		if (form === 'upper') return id.toUpperCase();
		if (form === 'spaced') return `  ${id}\n`;
		if (form === 'url') return `https://app.airsign.example/app/sessions/${id}/edit?ref=n8n`;
		return id;
	}
	return Object.fromEntries(
		Object.entries(value).map(([key, entry]) => [key, resolve(entry, fixtures, itemIndex)]),
	);
}

export interface CaseOutcome {
	result: RunNodeResult;
	requests: RequestLogEntry[];
}

export async function runCase(
	ctx: TestContext,
	op: OperationUnderTest,
	plan: CasePlan,
): Promise<CaseOutcome> {
	ctx.sandbox.reset();
	const fixtures = (await op.setup?.(ctx.sandbox, plan.items.length)) ?? {};
	ctx.sandbox.clearRequests();
	const credential = op.scopes
		? await ctx.env.addCredential('airSignApi', {
				authentication: 'accessToken',
				accessToken: ctx.sandbox.issueToken({ scopes: op.scopes }),
				baseUrl: ctx.sandbox.baseUrl,
			})
		: ctx.cred;
	const params = structuredClone(op.params);
	for (const slot of op.slots)
		if (!slot.binary) slot.place(params, `={{ $json[${JSON.stringify(slot.key)}] }}`);
	const input: HarnessInputItem[] = plan.items.map((item, itemIndex) => {
		const json: IDataObject = {};
		const binary: HarnessInputItem['binary'] = {};
		for (const slot of op.slots) {
			if (slot.binary) Object.assign(binary, slot.binary(item.values[slot.key]));
			else
				json[slot.key] = resolve(item.values[slot.key], fixtures, itemIndex) as IDataObject[string];
		}
		return { json, ...(Object.keys(binary).length > 0 && { binary }) };
	});
	const result = await runNode({
		env: ctx.env,
		nodeType: new AirSign(),
		credentials: { airSignApi: credential },
		parameters: params,
		input,
		continueOnFail: plan.continueOnFail,
	});
	// The API requests the sandbox received, as GET /_sandbox/requests reports them (over the socket).
	const logged = await fetch(`${ctx.sandbox.baseUrl}/_sandbox/requests`);
	const requests = ((await logged.json()) as RequestLogEntry[]).filter((r) =>
		r.path.startsWith('/api/v1'),
	);
	return { result, requests };
}

/** The item properties: see docs/reliability.md. */
export function judgeCase(
	op: OperationUnderTest,
	plan: CasePlan,
	{ result, requests }: CaseOutcome,
): void {
	const labelOf = (key: string) => op.slots.find((slot) => slot.key === key)!.label;
	// Every request the node sent was one AirSign accepted as well-formed: a rule-breaking value
	// that reached the sandbox is answered 400 (or 413/415/422) by its checks.
	count('requests', requests.length);
	const refused = requests.filter((r) => [400, 413, 415, 422].includes(r.status));
	expect(refused, 'no request carried a value that breaks a documented rule').toEqual([]);

	type Outcome =
		| { ok: true; output: IDataObject[] }
		| { ok: false; message: string; httpCode?: unknown };
	const byItem = new Map<number, INodeExecutionData[]>();
	for (const out of result.items) {
		const paired = (out.pairedItem as { item: number } | undefined)?.item;
		expect(typeof paired, 'every output item is paired').toBe('number');
		byItem.set(paired!, [...(byItem.get(paired!) ?? []), out]);
	}
	const { error } = result;
	if (plan.continueOnFail)
		expect(error, 'with Continue On Fail the node does not stop').toBeUndefined();
	const failedAt = error?.context?.itemIndex as number | undefined;
	if (error) expect(typeof failedAt, `the error names its item: ${error.message}`).toBe('number');
	const outcomes = plan.items.map((_item, index): Outcome | undefined => {
		const outs = byItem.get(index) ?? [];
		if (error && !plan.continueOnFail) {
			if (index < failedAt!) return { ok: true, output: [] };
			const { message, httpCode } = error as { message: string; httpCode?: unknown };
			return index === failedAt ? { ok: false, message, httpCode } : undefined;
		}
		// With Continue On Fail, an error item: the only output of its item, with the error's message.
		const { error: message, httpCode } = outs.length === 1 ? outs[0].json : {};
		if (plan.continueOnFail && typeof message === 'string') return { ok: false, message, httpCode };
		return { ok: true, output: outs.map((out) => out.json) };
	});

	let expectedRequests = 0;
	let apiFailures = 0;
	plan.items.forEach((item, index) => {
		const outcome = outcomes[index];
		count(`items ${item.perturbed?.kind ?? 'valid'}`);
		if (outcome === undefined) return; // not run: an earlier item stopped the node
		count(
			outcome.ok
				? 'succeeded'
				: outcome.httpCode !== undefined
					? 'failed at AirSign'
					: 'refused before a request',
		);
		const where = `${op.name}, item ${index} (${item.perturbed ? `${item.perturbed.kind} ${item.perturbed.key}` : 'all valid'})`;
		if (item.perturbed?.kind === 'invalid')
			expect(outcome.ok, `${where}: a value that breaks a rule is refused`).toBe(false);
		if (outcome.ok) {
			expectedRequests += 1;
			if (plan.continueOnFail && !result.error)
				op.checkOutput?.(outcome.output, item.values as IDataObject);
			return;
		}
		expectCleanMessage(outcome.message, where);
		if (outcome.httpCode !== undefined) {
			apiFailures += 1;
			expect(
				item.perturbed?.kind,
				`${where}: only junk may fail at AirSign: ${outcome.message}`,
			).toBe('junk');
			return;
		}
		// Refused before any request: it must say which parameter, and be about a perturbed one.
		expect(item.perturbed, `${where}: a valid item was refused: ${outcome.message}`).toBeDefined();
		expect(outcome.message, `${where}: the message names the parameter`).toMatch(
			labelOf(item.perturbed!.key),
		);
	});
	// Without Continue On Fail, items that ran beside the failing one (several items at once) may
	// have spent their requests; the error names them, and only they may add to the count.
	const ranBeside = /the items at index ([\d, ]+) ran beside it/.exec(
		`${result.error?.message ?? ''} ${(result.error as { description?: string } | undefined)?.description ?? ''}`,
	);
	const besideCost = ranBeside ? ranBeside[1].split(',').length : 0;
	if (besideCost > 0 && apiFailures === 0) {
		const beside = 'requests, items that ran beside the failure included';
		expect(requests.length, beside).toBeGreaterThanOrEqual(expectedRequests);
		expect(requests.length, beside).toBeLessThanOrEqual(expectedRequests + besideCost);
	} else if (apiFailures > 0) {
		// An answer that failed may come from before the sandbox (a URL too long for its HTTP
		// server): only the successful items' requests are certain.
		expect(requests.length, 'requests').toBeGreaterThanOrEqual(expectedRequests);
	} else {
		expect(
			requests.length,
			'items refused before a request cost none; others cost exactly theirs',
		).toBe(expectedRequests);
	}
}
