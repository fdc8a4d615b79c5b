package dev.legio.errors;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.exc.InvalidFormatException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import java.util.Collection;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What is wrong in a JSON file Legio keeps (the server's tokens, a memory folder's state), in words
 * for the person who will fix it: where ({@code line 1, column 12}, and the field, such as {@code
 * sessions.s1.extractions}) and what ({@code expected a list, found an object}).
 *
 * <p>Rules (a syntax error is worded as {@link JsonSyntax} words a client's):
 *
 * <ul>
 *   <li>Never a Java class name, a Jackson type or feature name, nor Jackson's {@code [Source:
 *       ...]} excerpt or {@code through reference chain}: a type is said as {@code a list}, {@code
 *       an object}, {@code a number}, {@code a text}, {@code true or false}.
 *   <li>One line: the parser's reason is cut at its first line end.
 *   <li>The line and column are the file's own (the parser was given the whole file).
 * </ul>
 */
public final class JsonFileProblem {
  private JsonFileProblem() {}

  private static final Pattern FOUND = Pattern.compile("from (\\w+) value");

  /** {@code line L, column C, at FIELD: what is wrong}. */
  public static String of(JsonProcessingException e) {
    StringBuilder out = new StringBuilder();
    JsonLocation at = e.getLocation();
    if (at != null && at.getLineNr() > 0) {
      out.append("line ").append(at.getLineNr()).append(", column ").append(at.getColumnNr());
    }
    String field = e instanceof JsonMappingException m ? field(m) : "";
    if (!field.isEmpty()) {
      out.append(out.isEmpty() ? "" : ", ").append("at ").append(field);
    }
    out.append(out.isEmpty() ? "" : ": ").append(what(e));
    return out.toString();
  }

  private static String what(JsonProcessingException e) {
    if (e instanceof InvalidFormatException f) {
      return "expected "
          + kind(f.getTargetType())
          + ", found "
          + Quoted.of(String.valueOf(f.getValue()));
    }
    if (e instanceof MismatchedInputException m && m.getTargetType() != null) {
      Matcher found = FOUND.matcher(String.valueOf(m.getOriginalMessage()));
      return "expected "
          + kind(m.getTargetType())
          + (found.find() ? ", found " + found(found.group(1)) : "");
    }
    if (e instanceof JsonMappingException) {
      if (e.getCause() instanceof JsonProcessingException syntax && syntax != e) {
        return what(syntax); // a syntax error met while mapping
      }
      return "the content is not what Legio keeps in this file";
    }
    return JsonSyntax.what(e); // a syntax error, worded as a client's is
  }

  /** The field the problem is in, {@code sessions.s1.extractions} or {@code [0].name}. */
  private static String field(JsonMappingException e) {
    StringBuilder out = new StringBuilder();
    for (JsonMappingException.Reference r : e.getPath()) {
      if (r.getFieldName() != null) {
        out.append(out.isEmpty() ? "" : ".").append(Quoted.of(r.getFieldName()));
      } else if (r.getIndex() >= 0) {
        out.append('[').append(r.getIndex()).append(']');
      }
    }
    return out.toString();
  }

  /** A Java type as a JSON value's kind. */
  private static String kind(Class<?> type) {
    if (type == null) {
      return "another value";
    }
    if (type.isArray() || Collection.class.isAssignableFrom(type)) {
      return "a list";
    }
    if (type == String.class || type == char.class || type == Character.class) {
      return "a text";
    }
    if (type == boolean.class || type == Boolean.class) {
      return "true or false";
    }
    if (type.isPrimitive() || Number.class.isAssignableFrom(type)) {
      return "a number";
    }
    if (type.isEnum()) {
      return "one of the known names";
    }
    if (Map.class.isAssignableFrom(type) || !type.getName().startsWith("java.")) {
      return "an object";
    }
    return "another value";
  }

  /** Jackson's name of the token found ({@code Object}, {@code Array}, ...) as a JSON kind. */
  private static String found(String token) {
    return switch (token) {
      case "Object" -> "an object";
      case "Array" -> "a list";
      case "String" -> "a text";
      case "Integer", "Floating-point", "Number" -> "a number";
      case "Boolean" -> "true or false";
      default -> "another value";
    };
  }
}
