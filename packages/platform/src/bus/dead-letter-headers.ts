/** Headers of a message in `<group>.dlq`; the value and key are the original ones. */
export const deadLetterHeaders = {
  originalTopic: 'dlq-original-topic',
  originalKey: 'dlq-original-key',
  originalPartition: 'dlq-original-partition',
  originalOffset: 'dlq-original-offset',
  group: 'dlq-group',
  error: 'dlq-error',
  attempts: 'dlq-attempts',
} as const;
