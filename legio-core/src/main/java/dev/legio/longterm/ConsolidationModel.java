package dev.legio.longterm;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.legio.log.PraetoriumXml;
import java.io.IOException;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The question consolidation asks the model ({@link #SYSTEM_PROMPT}, {@link #prompt}) and the
 * checks its answer must pass ({@link #parse}) before Legio writes anything of it.
 *
 * <p>The answer is one JSON object: {@code {"files":[{"name":"roads.md","title":"Roads",
 * "hook":"one line","content":"..."}],"remove":["old.md"],"consolidated_facts":[1,2]}}. Rules:
 *
 * <ul>
 *   <li>An answer that is not such an object (after removing a Markdown code fence) is {@linkplain
 *       Unusable unusable}: consolidation then runs deterministically.
 *   <li>Each file is checked alone and refused (with a reason in {@link Answer#refused()}) when its
 *       name is not a plain {@link ConsolidationTopic#isValidName topic name} ({@code ../x.md},
 *       {@code MEMORY.md}, {@code .hidden.md}), its content is empty or longer than {@link
 *       ConsolidationTopic#MAX_CONTENT_CHARS}, or it repeats a name; past {@link #MAX_FILES} files
 *       the rest are refused. Title and hook are made one safe line.
 *   <li>{@code remove} names only existing topic files that the answer does not also write.
 *   <li>{@code consolidated_facts} lists the numbers of the facts the model put into its files;
 *       facts it does not list are consolidated deterministically, so none is lost.
 *   <li>A fact counts as written by the model only when every file of the answer was accepted. When
 *       any file is refused, {@code consolidated_facts} is ignored (said in {@link
 *       Answer#refused()}) and every fact is filed deterministically as well, since a claimed fact
 *       may be only in the refused file: a fact may then be in two files, never in none. The
 *       accepted files are still written.
 * </ul>
 */
public final class ConsolidationModel {
  /** The most files one answer may write. */
  public static final int MAX_FILES = 30;

  /** Of each existing topic file, at most this many characters go into the question. */
  static final int TOPIC_EXCERPT_CHARS = 6_000;

  private static final ObjectMapper JSON = new ObjectMapper();

  public static final String SYSTEM_PROMPT =
      """
      You consolidate the long-term memory of an AI agent. Its memory is a folder of Markdown \
      topic files, each on one subject, listed in an index (MEMORY.md) that Legio writes. You \
      receive the index, the current topic files, facts extracted from the agent's recent \
      sessions (numbered, each with its category, confidence and the date it was extracted) and \
      excerpts of those sessions.

      Merge the new facts and insights into the topic files: update a file that covers the \
      subject, or start a new one; drop what is contradicted by newer facts; merge duplicates; \
      keep each file focused and short. Turn every relative date (today, yesterday, tomorrow, \
      last week, next Friday, 3 days ago, ...) into an absolute date (YYYY-MM-DD), using the date \
      of the fact or of the session it comes from.

      Answer with one JSON object and nothing else:
      {"files":[{"name":"roads.md","title":"Roads","hook":"one line saying what the file holds",\
      "content":"the whole file in Markdown"}],"remove":["old-topic.md"],\
      "consolidated_facts":[1,2]}
      - files: only the files you create or change; a file you write replaces it entirely, so \
      keep what it held that is still true. Names: lowercase letters, digits and '-', ending in \
      .md; never MEMORY.md. At most 20000 characters per file.
      - remove: topic files whose content you moved elsewhere or that are obsolete.
      - consolidated_facts: the number of every fact you put into a file.
      """;

  private ConsolidationModel() {}

  /** A transcript excerpt for the question. */
  public record Excerpt(String sessionId, String text) {}

  /** The question: the index, the topic files, the numbered facts and the transcripts' excerpts. */
  public static String prompt(
      String agent,
      LocalDate today,
      MemoryFile memory,
      Map<String, String> topicFiles,
      List<ConsolidationFact> facts,
      List<Excerpt> transcripts) {
    StringBuilder out = new StringBuilder();
    out.append("Agent: ").append(agent).append(". Today is ").append(today).append(".\n\n");
    out.append("<memory_index>\n");
    MemoryFile indexOnly =
        new MemoryFile(memory.title(), memory.index(), memory.preamble(), List.of(), List.of());
    PraetoriumXml.escapeText(indexOnly.render(), out);
    out.append("</memory_index>\n\n<topic_files>\n");
    for (Map.Entry<String, String> e : topicFiles.entrySet()) {
      out.append("<file name=\"");
      PraetoriumXml.escapeAttribute(e.getKey(), out);
      out.append("\">\n");
      String content = e.getValue();
      if (content.length() > TOPIC_EXCERPT_CHARS) {
        content = content.substring(0, TOPIC_EXCERPT_CHARS) + "\n[… cut: the file goes on]";
      }
      PraetoriumXml.escapeText(content, out);
      out.append("\n</file>\n");
    }
    out.append("</topic_files>\n\n<facts>\n");
    for (int i = 0; i < facts.size(); i++) {
      ConsolidationFact f = facts.get(i);
      StringBuilder line = new StringBuilder();
      line.append(i + 1)
          .append(". [")
          .append(f.category().label())
          .append("] ")
          .append(f.absoluteText())
          .append(" (confidence ")
          .append(String.format(java.util.Locale.ROOT, "%.2f", f.confidence()))
          .append(f.day() == null ? "" : ", extracted " + f.day())
          .append(")\n");
      PraetoriumXml.escapeText(line.toString(), out);
    }
    out.append("</facts>\n\n<sessions>\n");
    for (Excerpt t : transcripts) {
      out.append("<session id=\"");
      PraetoriumXml.escapeAttribute(t.sessionId(), out);
      out.append("\">\n");
      PraetoriumXml.escapeText(t.text(), out);
      out.append("\n</session>\n");
    }
    out.append("</sessions>\n");
    return out.toString();
  }

  /** The checked answer. */
  public record Answer(
      List<ConsolidationTopic> files,
      List<String> remove,
      Set<Integer> consolidatedFacts,
      List<String> refused) {}

  /** The answer cannot be used at all. */
  public static final class Unusable extends Exception {
    public Unusable(String message) {
      super(message);
    }
  }

  /**
   * Checks the model's answer.
   *
   * @param factCount how many facts the question numbered
   * @param existing the topic files in the folder now
   * @throws Unusable when it is not the JSON object asked for
   */
  public static Answer parse(String text, int factCount, Set<String> existing) throws Unusable {
    if (text == null || text.isBlank()) {
      throw new Unusable("the model's answer is empty");
    }
    int start = text.indexOf('{');
    int end = text.lastIndexOf('}');
    if (start < 0 || end < start) {
      throw new Unusable("the model's answer holds no JSON object");
    }
    JsonNode root;
    try {
      root = JSON.readTree(text.substring(start, end + 1));
    } catch (IOException e) {
      throw new Unusable("the model's answer is not valid JSON");
    }
    if (root == null || !root.isObject() || !root.path("files").isArray()) {
      throw new Unusable("the model's answer has no \"files\" list");
    }
    List<String> refused = new ArrayList<>();
    Map<String, ConsolidationTopic> files = new LinkedHashMap<>();
    for (JsonNode f : root.get("files")) {
      String name = f.path("name").isTextual() ? f.path("name").asText() : null;
      String shown = name == null ? "(no name)" : ConsolidationTopic.oneLine(name, 80);
      if (!ConsolidationTopic.isValidName(name)) {
        refused.add(
            "file "
                + shown
                + ": not a plain topic file name (lowercase letters, digits, '-', ending .md; not"
                + " MEMORY.md)");
        continue;
      }
      if (files.containsKey(name)) {
        refused.add("file " + name + ": written twice; the first is kept");
        continue;
      }
      if (files.size() >= MAX_FILES) {
        refused.add("file " + name + ": more than " + MAX_FILES + " files in one answer");
        continue;
      }
      String content =
          f.path("content").isTextual() ? cleanContent(f.path("content").asText()) : "";
      if (content.isBlank()) {
        refused.add("file " + name + ": no content");
        continue;
      }
      if (content.length() > ConsolidationTopic.MAX_CONTENT_CHARS) {
        refused.add(
            "file "
                + name
                + ": "
                + content.length()
                + " characters, more than "
                + ConsolidationTopic.MAX_CONTENT_CHARS);
        continue;
      }
      String title =
          ConsolidationTopic.oneLine(
              f.path("title").asText(""), ConsolidationTopic.MAX_TITLE_CHARS);
      if (title.isEmpty()) {
        title = name.substring(0, name.length() - 3);
      }
      String hook =
          ConsolidationTopic.oneLine(f.path("hook").asText(""), ConsolidationTopic.MAX_HOOK_CHARS);
      if (!content.startsWith("# ")) {
        content = "# " + title + "\n\n" + content;
      }
      if (!content.endsWith("\n")) {
        content += "\n";
      }
      files.put(name, new ConsolidationTopic(name, title, hook, content));
    }
    boolean aFileRefused = !refused.isEmpty();
    Set<String> remove = new LinkedHashSet<>();
    for (JsonNode r : root.path("remove")) {
      String name = r.isTextual() ? r.asText() : null;
      if (!ConsolidationTopic.isValidName(name)) {
        refused.add(
            "remove "
                + (name == null ? "(not a name)" : ConsolidationTopic.oneLine(name, 80))
                + ": not a topic file name");
      } else if (!existing.contains(name)) {
        refused.add("remove " + name + ": no such topic file");
      } else if (!files.containsKey(name)) {
        remove.add(name);
      }
    }
    Set<Integer> consolidated = new LinkedHashSet<>();
    for (JsonNode n : root.path("consolidated_facts")) {
      if (n.canConvertToInt()
          && n.isIntegralNumber()
          && n.intValue() >= 1
          && n.intValue() <= factCount) {
        consolidated.add(n.intValue());
      }
    }
    if (files.isEmpty()) {
      consolidated.clear(); // nothing written: no fact can be in a file
    } else if (aFileRefused && !consolidated.isEmpty()) {
      // A claimed fact may be only in a refused file: none counts as written.
      refused.add(
          "consolidated_facts "
              + consolidated
              + ": not trusted because a file was refused; those facts are filed"
              + " deterministically");
      consolidated.clear();
    }
    return new Answer(List.copyOf(files.values()), List.copyOf(remove), consolidated, refused);
  }

  /** The content without control characters other than line breaks and tabs. */
  private static String cleanContent(String text) {
    StringBuilder out = new StringBuilder(text.length());
    text.replace("\r\n", "\n")
        .codePoints()
        .forEach(
            cp -> {
              if (cp == '\n' || cp == '\t' || !Character.isISOControl(cp)) {
                out.appendCodePoint(cp);
              }
            });
    return out.toString();
  }
}
