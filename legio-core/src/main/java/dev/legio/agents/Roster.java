package dev.legio.agents;

import dev.legio.log.Names;
import dev.legio.log.PraetoriumXml;
import java.nio.charset.StandardCharsets;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * The centuriones as the legatus sees them: each one's name and description, sorted by name.
 * Prompts are not part of it, so editing a centurio's prompt body leaves the roster (and its {@link
 * #hash()}) unchanged, while adding, removing or re-describing a centurio changes it.
 */
public record Roster(List<Entry> entries) {

  /**
   * One centurio: a valid {@link Names name} without a channel suffix and a one-line description.
   */
  public record Entry(String name, String description) {
    public Entry {
      Names.require(name, "centurio name");
      if (name.indexOf(':') >= 0) {
        throw new IllegalArgumentException("a centurio's name has no ':' channel suffix: " + name);
      }
      Objects.requireNonNull(description, "description");
      if (description.indexOf('\n') >= 0 || description.indexOf('\r') >= 0) {
        throw new IllegalArgumentException("a description is one line: " + name);
      }
    }
  }

  /** Sorts the entries by name; two entries with one name are an error. */
  public Roster {
    entries = entries.stream().sorted(Comparator.comparing(Entry::name)).toList();
    for (int i = 1; i < entries.size(); i++) {
      if (entries.get(i).name().equals(entries.get(i - 1).name())) {
        throw new IllegalArgumentException("two centuriones named " + entries.get(i).name());
      }
    }
  }

  /** The roster of {@code centuriones} (as {@link AgentDirectory#centuriones()} lists them). */
  public static Roster of(List<AgentProfile> centuriones) {
    return new Roster(centuriones.stream().map(c -> new Entry(c.name(), c.description())).toList());
  }

  /**
   * Lowercase hex SHA-256 of the UTF-8 lines {@code name:description\n}, in name order. The
   * legatus's session is rebuilt when it changes.
   */
  public String hash() {
    StringBuilder lines = new StringBuilder();
    for (Entry entry : entries) {
      lines.append(entry.name()).append(':').append(entry.description()).append('\n');
    }
    return PromptFile.sha256(lines.toString().getBytes(StandardCharsets.UTF_8));
  }

  /**
   * The roster for the legatus's prompt, one {@code <centurio>} line per entry in name order, the
   * description escaped as XML text:
   *
   * <pre>
   * &lt;centuriones&gt;
   * &lt;centurio name="pullo"&gt;Field engineer.&lt;/centurio&gt;
   * &lt;centurio name="vorenus"&gt;Technology analysis specialist.&lt;/centurio&gt;
   * &lt;/centuriones&gt;
   * </pre>
   */
  public String xml() {
    StringBuilder out = new StringBuilder("<centuriones>\n");
    for (Entry entry : entries) {
      out.append("<centurio name=\"");
      PraetoriumXml.escapeAttribute(entry.name(), out);
      out.append("\">");
      PraetoriumXml.escapeText(entry.description(), out);
      out.append("</centurio>\n");
    }
    return out.append("</centuriones>").toString();
  }

  /**
   * The centuriones' status for the legatus's prompt, one empty element per centurio in name order,
   * names and statuses escaped as XML attributes:
   *
   * <pre>
   * &lt;centurio_status&gt;
   * &lt;centurio name="pullo" status="busy"/&gt;
   * &lt;centurio name="vorenus" status="idle"/&gt;
   * &lt;/centurio_status&gt;
   * </pre>
   */
  public static String statusXml(Map<String, String> statusByName) {
    return statusXml(statusByName, Map.of());
  }

  /**
   * As {@link #statusXml(Map)}, with a {@code context} attribute for each centurio in {@code
   * contextByName}: how full its session's context is ({@code <centurio name="vorenus"
   * status="idle" context="42%"/>}), escaped like the others.
   */
  public static String statusXml(
      Map<String, String> statusByName, Map<String, String> contextByName) {
    StringBuilder out = new StringBuilder("<centurio_status>\n");
    for (Map.Entry<String, String> entry : new TreeMap<>(statusByName).entrySet()) {
      out.append("<centurio name=\"");
      PraetoriumXml.escapeAttribute(entry.getKey(), out);
      out.append("\" status=\"");
      PraetoriumXml.escapeAttribute(Objects.requireNonNull(entry.getValue(), "status"), out);
      String context = contextByName.get(entry.getKey());
      if (context != null) {
        out.append("\" context=\"");
        PraetoriumXml.escapeAttribute(context, out);
      }
      out.append("\"/>\n");
    }
    return out.append("</centurio_status>").toString();
  }
}
