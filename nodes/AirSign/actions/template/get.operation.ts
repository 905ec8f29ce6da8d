import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { templateLocator } from '../../descriptions/locators';
import {
	itemsAtOnceOption,
	maxRateLimitWaitOption,
	optionsCollection,
} from '../../descriptions/options';
import type { FailureMessages } from '../../errors/messages';
import { withUtcTimestamps } from '../../helpers/dates';
import { readLocatorId } from '../../helpers/locator';
import { maxRateLimitWaitMs } from '../../helpers/options';
import { callAirSign } from '../../transport/call';
import { templateNotFound } from '../../errors/messages';
import { identifyByParameters } from '../itemIdentity';

const properties: INodeProperties[] = [
	templateLocator('The template to read'),
	optionsCollection([maxRateLimitWaitOption, itemsAtOnceOption]),
];

export const itemsAtOnce = true;

export const description = updateDisplayOptions(
	{ show: { resource: ['template'], operation: ['get'] } },
	properties,
);

const failures: FailureMessages = { 404: templateNotFound };

/** Get Template: recipients are roles (their recipientId is "default"), variables in full. */
export async function getTemplate(
	ctx: IExecuteFunctions,
	templateId: string,
	itemIndex: number,
	maxWaitMs: number,
): Promise<IDataObject> {
	const { body } = await callAirSign(
		ctx,
		{ method: 'GET', path: `/Template/${encodeURIComponent(templateId)}`, itemIndex },
		{ failures, maxRateLimitWaitMs: maxWaitMs },
	);
	return withUtcTimestamps(body as IDataObject);
}

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
	const templateId = readLocatorId(
		this.getNode(),
		this.getNodeParameter('templateId', itemIndex),
		'template',
		itemIndex,
	);
	const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
	return [await getTemplate(this, templateId, itemIndex, maxRateLimitWaitMs(this, options))];
}

export const identify = identifyByParameters('templateId');
