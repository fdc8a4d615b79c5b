package dev.legio.log;

/**
 * What {@link MessageLog#importMessages} did with one batch.
 *
 * @param imported messages stored
 * @param alreadyPresent messages skipped because their id was already in the log
 * @param unlinkedReplies messages stored without their reply_to because the parent was missing
 */
public record ImportResult(long imported, long alreadyPresent, long unlinkedReplies) {
  public ImportResult plus(ImportResult other) {
    return new ImportResult(
        imported + other.imported,
        alreadyPresent + other.alreadyPresent,
        unlinkedReplies + other.unlinkedReplies);
  }
}
