// UI tier step 2: the AirSign node from the nodes panel, every operation (ui/expected.mts) with its
// fields, hints and notices and no other's field. Pictures: node-panel-actions, node-panel.
import type { Page } from 'playwright-core';
import { chainWorkflow } from '../lib/fixtures.mts';
import {
	byTestId,
	canvasNode,
	chooseOption,
	closeNode,
	createWorkflow,
	fail,
	MANUAL_TRIGGER,
	openNodeCreatorFrom,
	openWorkflow,
	parameterPanelText,
	switchIsOn,
	type Say,
	type Shot,
	type Theme,
	type DevUrls,
} from './editor.mts';
import { airSignDescription, expectedPanels } from './expected.mts';

export async function nodePanel(
	page: Page,
	dev: DevUrls,
	theme: Theme,
	shot: Shot,
	say: Say,
): Promise<void> {
	const panels = expectedPanels();
	const workflow = chainWorkflow({ name: `UI tier: the nodes panel (${theme})` }, [MANUAL_TRIGGER]);
	const id = await createWorkflow(page, dev.n8nUrl, workflow);
	await openWorkflow(page, dev.n8nUrl, id);
	const creator = await openNodeCreatorFrom(page, MANUAL_TRIGGER.name);
	await byTestId(creator, 'node-creator-search-bar').fill('AirSign');
	await byTestId(creator, 'item-iterator-item')
		.filter({ has: byTestId(page, 'node-creator-item-name').getByText('AirSign', { exact: true }) })
		.first()
		.click();
	for (const panel of panels)
		await creator.getByText(panel.action, { exact: true }).first().waitFor({ state: 'attached' });
	// n8n shows the trigger's description; both nodes carry the action node's (nodesPanel.ts)
	const described = airSignDescription().description;
	if ((await creator.getByText(described, { exact: true }).count()) === 0)
		fail(`the AirSign entry's Node details do not show "${described}"`);
	await shot('node-panel-actions');
	const first = panels.find((p) => p.resource === 'session' && p.operation === 'send') ?? panels[0];
	await creator.getByText(first.action, { exact: true }).first().click();
	const ndv = byTestId(page, 'ndv');
	await ndv.waitFor();
	await canvasNode(page, first.action).waitFor({ state: 'attached' });

	const problems: string[] = [];
	for (const panel of panels) {
		await chooseOption(page, 'resource', panel.resourceName);
		await chooseOption(page, 'operation', panel.operationName);
		// the panel re-renders after a change: read it once it shows all it should (or the bound)
		const expectedTexts = [
			...panel.labels,
			...[...panel.notices, ...panel.hints].map((t) => plain(t).slice(0, 60)),
		];
		await waitForPanelText(page, expectedTexts).catch(() => {});
		const text = await parameterPanelText(page);
		const where = `${panel.resourceName} → ${panel.operationName}`;
		for (const label of panel.labels)
			if (!text.includes(label)) problems.push(`${where}: field "${label}" not shown`);
		for (const notice of [...panel.notices, ...panel.hints]) {
			const start = plain(notice).slice(0, 60);
			if (!plain(text).includes(start)) problems.push(`${where}: "${start}…" not shown`);
		}
		for (const name of panel.hiddenNames)
			if ((await byTestId(ndv, `parameter-input-${name}`).count()) > 0)
				problems.push(`${where}: field ${name} shown, but it belongs to other operations`);
		if (panel.resource === 'session' && panel.operation === 'send') await shot('node-panel');
		if (
			panel.resource === 'session' &&
			panel.operation === 'getMany' &&
			!(await switchIsOn(page, 'simple'))
		)
			problems.push(`${where}: Simplify is off, but it is on by default`);
	}
	if (problems.length) fail(problems.join('\n'));
	say(`${panels.length} operations checked against the node's description`);
	await closeNode(page);
}

async function waitForPanelText(page: Page, texts: string[]): Promise<void> {
	await page.waitForFunction(
		(wanted) => {
			const panel = document.querySelector<HTMLElement>(
				'[data-test-id="ndv"] [data-test-id="node-parameters"], [data-test-id="ndv"] .node-parameters-wrapper',
			);
			const shown = (panel?.innerText ?? '').replace(/\s+/g, ' ');
			return wanted.every((t) => shown.includes(t));
		},
		texts,
		{ polling: 'raf' },
	);
}

/** Text as the browser shows it: HTML tags of a notice dropped, whitespace collapsed. */
const plain = (text: string): string =>
	text
		.replace(/<[^>]+>/g, '')
		.replace(/\s+/g, ' ')
		.trim();
