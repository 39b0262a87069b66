import type { SchemaObject } from '@nestjs/swagger';

/** The shape of Terminus's health check answers, for the OpenAPI document. */

const INDICATORS: SchemaObject = {
  type: 'object',
  description: 'By check name: its status, with what it found (figures, or the reason it failed)',
  additionalProperties: {
    type: 'object',
    properties: {
      status: { type: 'string', enum: ['up', 'down'] },
      message: { type: 'string', description: 'Why the check failed' },
      responseTime: { type: 'number', description: 'Milliseconds the check took' },
    },
    required: ['status'],
    additionalProperties: true,
  },
};

function healthResult(statuses: string[], extra: Record<string, SchemaObject> = {}): SchemaObject {
  return {
    type: 'object',
    properties: {
      status: { type: 'string', enum: statuses },
      info: { ...INDICATORS, description: 'The checks that hold' },
      error: { ...INDICATORS, description: 'The checks that fail' },
      details: { ...INDICATORS, description: 'Every check' },
      ...extra,
    },
    required: ['status', 'info', 'error', 'details', ...Object.keys(extra)],
    additionalProperties: false,
  };
}

/** Every check holds. */
export const HEALTHY: SchemaObject = healthResult(['ok']);

/** A check fails, or the service is shutting down; an error answer, with the request id. */
export const UNHEALTHY: SchemaObject = healthResult(['error', 'shutting_down'], {
  requestId: { type: 'string', description: 'The request id (X-Request-Id), as the server logs it' },
});
