import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { sessionLocator } from '../../descriptions/locators';
import { itemOptions, maxRateLimitWaitMs, optionsCollection } from '../../descriptions/options';
import { sessionNotFound } from '../../errors/messages';
import { withUtcTimestamps } from '../../helpers/dates';
import { readLocatorId } from '../../helpers/locator';
import { callAirSign } from '../../transport/call';
import { identifyByParameters } from '../itemIdentity';

const properties: INodeProperties[] = [
	sessionLocator('The session to read'),
	optionsCollection(itemOptions),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['session'], operation: ['get'] } },
	properties,
);

export const itemsAtOnce = true;

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
	const given = this.getNodeParameter('sessionId', itemIndex);
	const sessionId = readLocatorId(this.getNode(), given, 'session', itemIndex);
	const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const { body } = await callAirSign(
		this,
		{ method: 'GET', path: `/Session/${encodeURIComponent(sessionId)}`, itemIndex },
		{ failures: { 404: sessionNotFound }, maxRateLimitWaitMs: maxRateLimitWaitMs(this, options) },
	);
	return [withUtcTimestamps(body as IDataObject)];
}

export const identify = identifyByParameters('sessionId');
