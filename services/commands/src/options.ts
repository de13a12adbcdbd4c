/** What the commands service is made with besides its platform (config.ts reads them from the settings). */
export interface CommandsServiceOptions {
  /**
   * How long a counted command.executed is recognised when the bus delivers it again
   * (`redeliveryWindowSeconds` of @kickstand/platform/config): 2 minutes with the in-process bus
   * (the default), KAFKA_REDELIVERY_WINDOW with Kafka.
   */
  redeliveryWindowSeconds?: number;
}
