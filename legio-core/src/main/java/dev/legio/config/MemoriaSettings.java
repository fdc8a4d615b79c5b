package dev.legio.config;

import java.util.List;

/**
 * The {@code [memoria]} section: where edicta, acta and commentarii are kept.
 *
 * <p>{@code store = "files"} keeps them as XML files under the castra; {@code "database"} in the
 * praetorium's database (SQLite or PostgreSQL), where every node on one PostgreSQL database sees
 * them; {@code "auto"} (the default) means {@code "database"} when the praetorium is PostgreSQL and
 * {@code "files"} otherwise. {@link #store} is always the resolved choice.
 *
 * @param store where memoria lives
 */
public record MemoriaSettings(Store store) {
  /** Where memoria lives. */
  public enum Store {
    /** XML files under the castra ({@code castra/edicta/NAME.xml}, ...). */
    FILES,
    /** The praetorium's database. */
    DATABASE
  }

  /** The values of {@code store}, as written in {@code legio.toml}. */
  public static final List<String> VALUES = List.of("auto", "files", "database");

  /** The default for a praetorium on {@code praetorium}'s store. */
  public static MemoriaSettings defaults(PraetoriumSettings.Store praetorium) {
    return new MemoriaSettings(
        praetorium == PraetoriumSettings.Store.POSTGRES ? Store.DATABASE : Store.FILES);
  }

  static MemoriaSettings read(TomlTable t, PraetoriumSettings praetorium) {
    return switch (t.choice("store", "auto", VALUES)) {
      case "files" -> new MemoriaSettings(Store.FILES);
      case "database" -> new MemoriaSettings(Store.DATABASE);
      default -> defaults(praetorium.store());
    };
  }
}
