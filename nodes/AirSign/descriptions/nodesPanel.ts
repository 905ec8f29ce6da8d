/**
 * The AirSign node's description, which both nodes carry. n8n's nodes panel shows the action node
 * and its trigger as one entry, AirSign, and gives that entry the trigger's description (its node
 * creator, useActionsGeneration.ts); with this one text the entry says what the action node does.
 */
export const AIRSIGN_DESCRIPTION =
	'Create signing sessions from documents, PDFs and templates, send them, remind signers, and read sessions and templates in AirSign';
