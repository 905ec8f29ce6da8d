/** n8n's UX guidelines a description shows by itself (docs/n8n-guidelines.md): fields, names, texts. */
import '../../harness';

import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

import { NodeConnectionTypes, NodeHelpers, Workflow } from 'n8n-workflow';
import type {
	INode,
	INodeParameters,
	INodeProperties,
	INodePropertyCollection,
	INodePropertyMode,
	INodePropertyOptions,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { AirSignApi } from '../../../credentials/AirSignApi.credentials';
import { AirSign } from '../../../nodes/AirSign/AirSign.node';
import { AirSignTrigger } from '../../../nodes/AirSign/AirSignTrigger.node';
import { HarnessNodeTypes, PACKAGE_NAME } from '../../harness/node-types';
import { declaredAgentText, NODE_OPERATIONS } from './nodeOperations';

const nodeType = new AirSign();
const description = nodeType.description;
const operations = NODE_OPERATIONS.map(({ resource, operation }) => ({ resource, operation }));

/** The tool n8n makes of a `usableAsTool` node (convertNodeToAiTool; e2e/scenarios/agent.mts in
 * real n8n), without the fields n8n adds only to a node that has no `toolDescription`. */
function asTool(type: INodeType): INodeType {
	const own = type.description;
	if (!own.properties.some((p) => p.name === 'toolDescription'))
		throw new Error('The node declares no toolDescription: n8n would add its own fields');
	const tool: INodeTypeDescription = {
		...own,
		name: `${own.name}Tool`,
		displayName: `${own.displayName} Tool`,
		inputs: [],
		outputs: [NodeConnectionTypes.AiTool],
	};
	return Object.create(type, { description: { value: tool } }) as INodeType;
}

const toolType = asTool(nodeType);
const nodeTypes = new HarnessNodeTypes()
	.add(`${PACKAGE_NAME}.airSign`, nodeType)
	.add(`${PACKAGE_NAME}.airSignTool`, toolType);

/** A saved node (defaults left out), as n8n's Workflow fills in its defaults at every execution. */
function loaded(type: 'airSign' | 'airSignTool', parameters: INodeParameters) {
	const workflow = new Workflow({
		nodes: [
			{
				id: 'a1b2c3d4-0000-4000-8000-000000000001',
				name: 'AirSign',
				type: `${PACKAGE_NAME}.${type}`,
				typeVersion: 1,
				position: [0, 0],
				parameters,
			},
		],
		connections: {},
		active: false,
		nodeTypes,
	});
	return { workflow, node: workflow.getNode('AirSign')! };
}

/** What the AI agent hands the model about the tool (n8n-core's createNodeAsTool). */
function modelReads(parameters: INodeParameters): string {
	return NodeHelpers.getToolDescriptionForNode(loaded('airSignTool', parameters).node, toolType);
}

const key = ({ resource, operation }: { resource: string; operation: string }) =>
	`${resource}.${operation}`;

// Each operation's declared text; checked below by what it must say, so a new one needs no entry.
const AGENT_TEXTS: Record<string, unknown> = Object.fromEntries(
	NODE_OPERATIONS.map((op) => [op.key, declaredAgentText(op)]),
);

/** The operations whose agent text must say that they email people; every other must not. */
const EMAILING = [
	'session.send',
	'session.sendInvitation',
	'session.create',
	'session.createFromTemplate',
];

describe('the name n8n gives a node added from the nodes panel', () => {
	const SHORT_ACTIONS = NODE_OPERATIONS.map((op) => op.action);

	it('the action node: the short action, in n8n casing', () => {
		expect(operations.map((p) => NodeHelpers.makeNodeName(p, description))).toEqual(SHORT_ACTIONS);
		// Sentence case, one of a kind, as the nodes panel lists them.
		for (const action of SHORT_ACTIONS) expect(action).toMatch(/^[A-Z][a-z]*( [a-z]+)+$/);
		expect(new Set(SHORT_ACTIONS).size).toBe(SHORT_ACTIONS.length);
		expect(SHORT_ACTIONS).toContain('Send a session');
		expect(SHORT_ACTIONS).toContain('Send an invitation');
	});

	it("one name per operation: its action says every word of the Operation list's name", () => {
		for (const { title, action } of NODE_OPERATIONS) {
			const operationName = title.split(' ').slice(1); // after the resource
			const words = action.toLowerCase().split(' ');
			expect(
				operationName.filter((w) => !words.includes(w.toLowerCase())),
				`${title}: "${action}"`,
			).toEqual([]);
		}
	});

	it('the tool: the same, "in AirSign" (n8n adds it to every tool)', () => {
		expect(operations.map((p) => NodeHelpers.makeNodeName(p, toolType.description))).toEqual(
			SHORT_ACTIONS.map((a) => `${a} in AirSign`),
		);
	});
});

describe('what the model reads about the tool', () => {
	it('each operation: its own agent text, filled in at execution (a saved tool node omits it)', () => {
		expect(Object.fromEntries(operations.map((p) => [key(p), modelReads({ ...p })]))).toEqual(
			AGENT_TEXTS,
		);
		const texts = Object.values(AGENT_TEXTS);
		for (const text of texts) expect(text).toMatch(/^[A-Z].{40,}[^.]$/);
		expect(new Set(texts).size).toBe(texts.length);
		expect(modelReads({ resource: 'session', operation: 'send' })).toBe(
			'Send a draft AirSign session for signing; emails real people: every recipient gets an invitation, which cannot be undone; costs 1 request of the hourly AirSign budget',
		);
	});

	it('a tool node saved with "Set Automatically" (older workflows) reads the same text', () => {
		for (const p of operations)
			expect(modelReads({ descriptionType: 'auto', ...p }), key(p)).toBe(AGENT_TEXTS[key(p)]);
	});

	it('a Description the user wrote is what the model reads', () => {
		const mine = 'Reminds one signer; only when the user asks for it';
		expect(
			modelReads({ resource: 'session', operation: 'sendInvitation', toolDescription: mine }),
		).toBe(mine);
		// and an older one, written under "Set Manually"
		expect(
			modelReads({
				descriptionType: 'manual',
				resource: 'session',
				operation: 'send',
				toolDescription: mine,
			}),
		).toBe(mine);
	});

	it('every operation that emails people says so, and each says what it costs', () => {
		const texts = Object.fromEntries(operations.map((p) => [key(p), modelReads({ ...p })]));
		for (const [operation, text] of Object.entries(texts))
			if (EMAILING.includes(operation)) expect(text, operation).toContain('emails real people');
			else expect(text, operation).not.toContain('email');
		// Get Many sessions spends the List Sessions budget; every other operation the hourly one.
		for (const [operation, text] of Object.entries(texts))
			expect(text).toContain(
				operation === 'session.getMany'
					? 'each page of up to 100 costs 1 of the 60 List Sessions requests an hour'
					: 'costs 1 request of the hourly AirSign budget',
			);
	});

	it('the action node has no Description field: it is the tool’s alone', () => {
		for (const p of operations)
			expect(loaded('airSign', { ...p }).node.parameters, key(p)).not.toHaveProperty(
				'toolDescription',
			);
		for (const p of operations)
			expect(loaded('airSignTool', { ...p }).node.parameters.toolDescription, key(p)).toBe(
				AGENT_TEXTS[key(p)],
			);
	});

	it('the node is usable as a tool; every option says what it does, needs and returns', () => {
		expect(description.usableAsTool).toBe(true);
		for (const p of description.properties.filter((x) => x.name === 'operation'))
			for (const o of p.options as INodePropertyOptions[])
				expect((o.description ?? '').length).toBeGreaterThan(30);
	});
});

describe('canvas subtitle', () => {
	/** As editor-ui's getNodeSubtitle evaluates it (its placeholder: PLACEHOLDER_FILLED_AT_EXECUTION_TIME). */
	function subtitleFor(resource?: string, operation?: string): string {
		const { workflow, node } = loaded('airSign', resource ? { resource, operation } : {});
		return workflow.expression.getSimpleParameterValue(
			node,
			description.subtitle!,
			'internal',
			{},
			undefined,
			'[filled at execution time]',
		) as string;
	}

	it('every operation of every resource has its own phrase, none the internal values', () => {
		const phrases = operations.map(({ resource, operation }) => {
			const phrase = subtitleFor(resource, operation);
			expect(phrase, `${resource} → ${operation}`).not.toContain(':');
			return phrase;
		});
		expect(phrases.length).toBeGreaterThanOrEqual(10);
		expect(new Set(phrases).size).toBe(phrases.length);
	});

	it('says the operation in words, evaluated as n8n evaluates it', () => {
		expect(subtitleFor('session', 'send')).toBe('Send a session');
		expect(subtitleFor('session', 'getMany')).toBe('Get many sessions');
		expect(subtitleFor('file', 'upload')).toBe('Upload a file');
		expect(subtitleFor('template', 'get')).toBe('Get a template');
	});

	it('is the operation’s action, as in the nodes panel and the name of a new node', () => {
		for (const { resource, operation, action } of NODE_OPERATIONS) {
			expect(action, `${resource} → ${operation}`).toBeTruthy();
			expect(subtitleFor(resource, operation)).toBe(action);
		}
	});

	it('every resource has operations; a new node (the defaults) shows its action', () => {
		const property = (name: string, resource?: string) =>
			description.properties.find(
				(p) =>
					p.name === name && (!resource || p.displayOptions?.show?.resource?.includes(resource)),
			)!;
		const resources = (property('resource').options as INodePropertyOptions[]).map((o) => o.value);
		expect([...new Set(NODE_OPERATIONS.map((o) => o.resource))].sort()).toEqual(resources.sort());
		const resource = String(property('resource').default);
		const operation = String(property('operation', resource).default);
		const { action } = NODE_OPERATIONS.find(
			(o) => o.resource === resource && o.operation === operation,
		)!;
		expect(subtitleFor()).toBe(action);
	});

	it('an operation it does not know (a newer workflow) shows the internal values', () => {
		expect(subtitleFor('session', 'archive')).toBe('archive: session');
	});
});

interface Field {
	/** Where it is: node › parent › field. */
	path: string;
	field: INodeProperties;
}

/** Every field of a node, with the fields inside collections and fixed collections. */
function fieldsOf(description: INodeTypeDescription): Field[] {
	const out: Field[] = [];
	const walk = (fields: INodeProperties[], at: string) => {
		for (const field of fields) {
			const path = `${at} › ${field.name}`;
			out.push({ path, field });
			if (field.type === 'collection') walk(field.options as INodeProperties[], path);
			if (field.type === 'fixedCollection')
				for (const group of field.options as INodePropertyCollection[])
					walk(group.values, `${path} › ${group.name}`);
		}
	};
	walk(description.properties, description.displayName);
	return out;
}

const fields = [...fieldsOf(description), ...fieldsOf(new AirSignTrigger().description)];

describe("n8n's UX guidelines", () => {
	it('on both nodes\' fields: an example in a placeholder starts with "e.g."', () => {
		// Not examples: a collection's placeholder (its button) and a From List search prompt.
		const examples = [
			...fields
				.filter(({ field }) => field.placeholder !== undefined)
				.filter(({ field }) => field.type !== 'collection' && field.type !== 'fixedCollection')
				.map(({ path, field }) => ({ path, placeholder: field.placeholder! })),
			...fields.flatMap(({ path, field }) =>
				((field.modes ?? []) as INodePropertyMode[])
					.filter((mode) => mode.type !== 'list' && mode.placeholder !== undefined)
					.map((mode) => ({ path: `${path} (${mode.name})`, placeholder: mode.placeholder! })),
			),
		];
		expect(examples.length).toBeGreaterThan(10);
		expect(examples.filter(({ placeholder }) => !placeholder.startsWith('e.g. '))).toEqual([]);
	});

	it("on both nodes' fields: an email field offers the guidelines' example address", () => {
		const emails = fields.filter(
			({ field }) => /email/i.test(field.name) && field.type === 'string',
		);
		expect(emails.map(({ path }) => path)).toHaveLength(4);
		for (const { field } of emails) expect(field.placeholder).toBe('e.g. nathan@example.com');
	});

	it('on both nodes\' fields: a boolean is described starting with "Whether"', () => {
		const booleans = fields.filter(({ field }) => field.type === 'boolean');
		expect(booleans.length).toBeGreaterThan(0);
		expect(
			booleans.filter(({ field }) => !field.description?.startsWith('Whether ')).map((b) => b.path),
		).toEqual([]);
	});

	it("on both nodes' fields: a resource locator offers From List first and starts there", () => {
		const locators = fields.filter(({ field }) => field.type === 'resourceLocator');
		expect(locators.length).toBeGreaterThan(0);
		for (const { field } of locators) {
			const modes = field.modes as INodePropertyMode[];
			expect(modes[0]).toMatchObject({ name: 'list', displayName: 'From List' });
			expect(field.default).toMatchObject({ mode: 'list' });
		}
	});

	// The fields the editor shows for Get Many of sessions, by n8n-workflow's display rules.
	const shown = description.properties.filter(
		(field) =>
			field.displayOptions?.show?.operation?.includes('getMany') &&
			NodeHelpers.displayParameter(
				{ resource: 'session', operation: 'getMany' },
				field,
				{ typeVersion: 1 } as INode,
				null,
			),
	);
	const names = (fields: INodeProperties[] | undefined) => (fields ?? []).map((f) => f.name);

	it("on Get Many's sorting: sorts in a collection of its own, below Options", () => {
		const at = (name: string) => shown.findIndex((field) => field.name === name);
		expect(at('sort')).toBeGreaterThan(at('options'));
		expect(at('options')).toBeGreaterThan(-1);
		const sort = shown[at('sort')];
		expect(sort.type).toBe('collection');
		expect(names(sort.options as INodeProperties[])).toEqual(['sortBy', 'sortOrder']);
		expect(names(shown[at('options')].options as INodeProperties[])).not.toContain('sortBy');
	});

	it('on the credential: every secret is a password field', () => {
		const properties = new AirSignApi().properties;
		const secrets = ['clientSecret', 'accessToken', 'sessionToken'];
		for (const name of secrets)
			expect(properties.find((p) => p.name === name)?.typeOptions?.password, name).toBe(true);
	});

	const ROOT = path.resolve(__dirname, '../../..');
	const sources = ['nodes', 'credentials'].flatMap((dir) =>
		(readdirSync(path.join(ROOT, dir), { recursive: true }) as string[])
			.filter((file) => file.endsWith('.ts'))
			.map((file) => path.join(dir, file)),
	);
	// A Title Case label such as "Items at Once", "Recipients (JSON)" or "<Role> Name".
	const FIRST = String.raw`(?:[A-Z][\w-]*|&lt;[A-Z]\w*&gt;)`;
	const WORD = String.raw`(?:${FIRST}|\d+|\(JSON\)|of|on|at|for|and|to|by|with|the|a)`;
	const LABEL = new RegExp(String.raw`"${FIRST}(?: ${WORD})*"`, 'g');

	it('in the copy of the nodes and the credential: a parameter or option name is written in single quotes', () => {
		expect(sources.length).toBeGreaterThan(50);
		const found = sources.flatMap((file) =>
			readFileSync(path.join(ROOT, file), 'utf8')
				// Comments are not copy; n8n expressions ($("Upload"), ={{ … }}) keep their own quoting.
				.replace(/\/\*[\s\S]*?\*\//g, '')
				.replace(/(^|\s)\/\/ .*$/gm, '$1')
				.replace(/=\{\{[\s\S]*?\}\}|\$\("[^"]*"\)/g, '')
				.split('\n')
				.flatMap((line) => (line.match(LABEL) ?? []).map((label) => `${file}: ${label}`)),
		);
		expect(found).toEqual([]);
	});
});
