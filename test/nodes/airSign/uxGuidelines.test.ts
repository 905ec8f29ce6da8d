/** n8n's UX guidelines a description shows by itself, on every field (docs/n8n-guidelines.md). */
import '../../harness';

import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

import { NodeHelpers } from 'n8n-workflow';
import type {
	INode,
	INodeProperties,
	INodePropertyCollection,
	INodePropertyMode,
	INodeTypeDescription,
} from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { AirSign } from '../../../nodes/AirSign/AirSign.node';
import { AirSignTrigger } from '../../../nodes/AirSign/AirSignTrigger.node';
import { AirSignApi } from '../../../credentials/AirSignApi.credentials';

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

const fields = [
	...fieldsOf(new AirSign().description),
	...fieldsOf(new AirSignTrigger().description),
];

describe("n8n's UX guidelines, on both nodes' fields", () => {
	it('an example in a placeholder starts with "e.g."', () => {
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

	it("an email field offers the guidelines' example address", () => {
		const emails = fields.filter(
			({ field }) => /email/i.test(field.name) && field.type === 'string',
		);
		expect(emails.map(({ path }) => path)).toHaveLength(4);
		for (const { field } of emails) expect(field.placeholder).toBe('e.g. nathan@example.com');
	});

	it('a boolean is described starting with "Whether"', () => {
		const booleans = fields.filter(({ field }) => field.type === 'boolean');
		expect(booleans.length).toBeGreaterThan(0);
		expect(
			booleans.filter(({ field }) => !field.description?.startsWith('Whether ')).map((b) => b.path),
		).toEqual([]);
	});

	it('a resource locator offers From List first and starts there', () => {
		const locators = fields.filter(({ field }) => field.type === 'resourceLocator');
		expect(locators.length).toBeGreaterThan(0);
		for (const { field } of locators) {
			const modes = field.modes as INodePropertyMode[];
			expect(modes[0]).toMatchObject({ name: 'list', displayName: 'From List' });
			expect(field.default).toMatchObject({ mode: 'list' });
		}
	});
});

describe("n8n's UX guidelines, on Get Many's sorting", () => {
	const getMany = new AirSign().description.properties.filter(
		(field) => field.displayOptions?.show?.operation?.includes('getMany') ?? false,
	);
	// The fields the editor shows for Get Many of sessions, by n8n-workflow's display rules.
	const shown = getMany.filter((field) =>
		NodeHelpers.displayParameter(
			{ resource: 'session', operation: 'getMany' },
			field,
			{ typeVersion: 1 } as INode,
			null,
		),
	);
	const names = (fields: INodeProperties[] | undefined) => (fields ?? []).map((f) => f.name);

	it('sorts in a collection of its own, below Options', () => {
		const at = (name: string) => shown.findIndex((field) => field.name === name);
		expect(at('sort')).toBeGreaterThan(at('options'));
		expect(at('options')).toBeGreaterThan(-1);
		const sort = shown[at('sort')];
		expect(sort.type).toBe('collection');
		expect(names(sort.options as INodeProperties[])).toEqual(['sortBy', 'sortOrder']);
		expect(names(shown[at('options')].options as INodeProperties[])).not.toContain('sortBy');
	});
});

describe("n8n's UX guidelines, on the credential", () => {
	it('every secret is a password field', () => {
		const properties = new AirSignApi().properties;
		const secrets = ['clientSecret', 'accessToken', 'sessionToken'];
		for (const name of secrets)
			expect(properties.find((p) => p.name === name)?.typeOptions?.password, name).toBe(true);
	});
});

describe("n8n's UX guidelines, in the copy of the nodes and the credential", () => {
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

	it('a parameter or option name is written in single quotes', () => {
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
