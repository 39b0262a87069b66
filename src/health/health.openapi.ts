import type { SchemaObject } from '@nestjs/swagger';

/** The shape of Terminus's health check answers, for the OpenAPI document. */

const INDICATORS: SchemaObject = {
  type: 'object',
  description: 'By check name: its status, with details or the reason it failed',
  additionalProperties: {
    type: 'object',
    properties: { status: { type: 'string', enum: ['up', 'down', 'degraded'] } },
    required: ['status'],
    additionalProperties: true,
  },
};

export const HEALTH_RESULT: SchemaObject = {
  type: 'object',
  properties: {
    status: { type: 'string', enum: ['ok', 'error', 'shutting_down', 'degraded'] },
    info: { ...INDICATORS, nullable: true },
    error: { ...INDICATORS, nullable: true },
    degraded: { ...INDICATORS, nullable: true },
    details: INDICATORS,
  },
  required: ['status', 'details'],
};
