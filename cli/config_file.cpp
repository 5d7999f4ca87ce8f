#include "config_file.h"

#include <toml++/toml.h>

#include <algorithm>
#include <charconv>
#include <sstream>

#include "option_table.h"
#include "suggest.h"

namespace sitemill::cli {
namespace {

// "FILE:LINE: what", as every other message about an input.
[[noreturn]] void fail(const std::string& file, const toml::source_region& at,
                       const std::string& what) {
  std::string where = file;
  if (at.begin.line > 0) where += ":" + std::to_string(at.begin.line);
  throw CLI::ConfigError(where + ": " + what);
}

const CLI::App* command_named(const CLI::App& root, std::string_view name) {
  for (const CLI::App* sub : visible_commands(root))
    if (sub->get_name() == name) return sub;
  return nullptr;
}

// The keys `command` takes: its long option names without the dashes, and
// its positionals' names.
std::vector<std::string> keys_of(const CLI::App& command) {
  std::vector<std::string> keys;
  for (const CLI::Option* o : command.get_options()) {
    if (!o->get_configurable()) continue;
    for (const std::string& l : o->get_lnames()) keys.push_back(l);
    if (o->get_lnames().empty() && !o->get_name(true, false).empty())
      keys.push_back(o->get_name(true, false));
  }
  return keys;
}

// A scalar as the command line would spell it.
bool scalar_text(const toml::node& n, std::string& out) {
  if (const auto* s = n.as_string()) {
    out = s->get();
    return true;
  }
  if (const auto* i = n.as_integer()) {
    out = std::to_string(i->get());
    return true;
  }
  if (const auto* f = n.as_floating_point()) {
    char buf[32];
    const auto r = std::to_chars(buf, buf + sizeof buf, f->get());
    out.assign(buf, r.ptr);
    return true;
  }
  if (const auto* b = n.as_boolean()) {
    out = b->get() ? "true" : "false";
    return true;
  }
  return false;
}

// What kind of value an option takes, as a config file must write it.
enum class value_shape { flag, number, one, many };

value_shape shape_of(const CLI::Option& o) {
  if (o.get_expected_max() == 0) return value_shape::flag;
  if (o.get_expected_max() > 1 ||
      o.get_multi_option_policy() == CLI::MultiOptionPolicy::TakeAll)
    return value_shape::many;
  std::string type = o.get_type_name();
  type = type.substr(0, type.find(':'));
  if (type == "INT" || type == "UINT" || type == "FLOAT" || type == "NUMBER")
    return value_shape::number;
  return value_shape::one;
}

// A value of a kind the option cannot take, said in the file's terms: the
// option's own check would say something about "true" or a list's text.
std::string wrong_kind(const std::string& key, const CLI::Option& o,
                       const toml::node& value) {
  const std::string quoted = "'" + key + "'";
  switch (shape_of(o)) {
    case value_shape::flag:
      if (value.is_boolean()) return {};
      return quoted + " is a flag: write " + key + " = true (or false)";
    case value_shape::number:
      if (value.is_boolean()) return quoted + " takes a number, not a boolean";
      if (value.is_array()) return quoted + " takes one number, not a list";
      return {};
    case value_shape::one:
      if (value.is_array()) return quoted + " takes one value, not a list";
      return {};
    case value_shape::many:
      return {};
  }
  return {};
}

std::string config_name(const CLI::App& root) {
  const CLI::Option* o = root.get_config_ptr();
  if (o == nullptr) return default_config_file;
  const std::string given = o->as<std::string>();
  return given.empty() ? default_config_file : given;
}

}  // namespace

std::vector<CLI::ConfigItem> toml_config::from_config(std::istream& in) const {
  const std::string file = config_name(root_);
  toml::table doc;
  try {
    doc = toml::parse(in, file);
  } catch (const toml::parse_error& e) {
    fail(file, e.source(), std::string(e.description()));
  }

  std::vector<std::string> commands;
  for (const CLI::App* sub : visible_commands(root_))
    commands.push_back(sub->get_name());
  std::string command_list;
  for (const auto& c : commands)
    command_list += (command_list.empty() ? "" : ", ") + c;

  std::vector<CLI::ConfigItem> out;
  for (const auto& [section, node] : doc) {
    const std::string name(section.str());
    const toml::table* table = node.as_table();
    if (table == nullptr)
      fail(file, node.source(),
           "'" + name +
               "' is outside any command's table: put it under "
               "[generate], [check], ... (the commands are " +
               command_list + ")");
    const CLI::App* command = command_named(root_, name);
    if (command == nullptr) {
      const std::string near = nearest_name(name, commands);
      fail(file, section.source(),
           "[" + name + "] is not a command" +
               (near.empty() ? "; the commands are " + command_list
                             : "; did you mean [" + near + "]?"));
    }
    const std::vector<std::string> keys = keys_of(*command);
    for (const auto& [key_name, value] : *table) {
      const std::string key(key_name.str());
      if (std::find(keys.begin(), keys.end(), key) == keys.end()) {
        std::string why = "'" + key + "' is not an option of sitemill " + name;
        const CLI::Option* o = command->get_option_no_throw("--" + key);
        if (o != nullptr && !o->get_configurable())
          why = "'" + key + "' cannot be set in a config file";
        else if (const std::string near = nearest_name(key, keys);
                 !near.empty())
          why += "; did you mean '" + near + "'?";
        else
          why += " (run 'sitemill " + name + " --help' for its options)";
        fail(file, key_name.source(), why);
      }
      const CLI::Option* option = command->get_option_no_throw("--" + key);
      if (option == nullptr) option = command->get_option_no_throw(key);
      if (option != nullptr)
        if (const std::string why = wrong_kind(key, *option, value);
            !why.empty())
          fail(file, value.source(), why);
      std::string where = file;
      if (value.source().begin.line > 0)
        where += ":" + std::to_string(value.source().begin.line);
      origins_.push_back({name, key, std::move(where)});
      CLI::ConfigItem item;
      item.parents = {name};
      item.name = key;
      std::string text;
      if (scalar_text(value, text)) {
        item.inputs.push_back(std::move(text));
      } else if (const toml::array* list = value.as_array()) {
        for (const toml::node& element : *list) {
          if (!scalar_text(element, text))
            fail(file, element.source(),
                 "'" + key + "': a list holds strings, numbers or booleans");
          item.inputs.push_back(std::move(text));
        }
      } else {
        fail(file, value.source(),
             "'" + key +
                 "' takes a string, a number, a boolean or a list of "
                 "them (dates are written as strings)");
      }
      out.push_back(std::move(item));
    }
  }
  return out;
}

std::string toml_config::explain(const std::string& message,
                                 const std::vector<std::string>& args) const {
  auto is_name_char = [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-';
  };
  for (const config_origin& at : origins_) {
    const std::string flag = "--" + at.key;
    // Given on the command line, the value is not the file's.
    if (std::any_of(args.begin(), args.end(), [&](const std::string& a) {
          return a == flag || a.starts_with(flag + "=");
        }))
      continue;
    for (std::size_t p = message.find(flag); p != std::string::npos;
         p = message.find(flag, p + 1)) {
      const std::size_t end = p + flag.size();
      if ((p > 0 && is_name_char(message[p - 1])) ||
          (end < message.size() && is_name_char(message[end])))
        continue;
      std::string why = message;
      if (why.starts_with(flag + ": ")) why.erase(0, flag.size() + 2);
      return at.where + ": '" + at.key + "' in [" + at.command + "]: " + why;
    }
  }
  return {};
}

std::string toml_config::to_config(const CLI::App* app, bool default_also,
                                   bool write_description,
                                   std::string prefix) const {
  return CLI::ConfigTOML().to_config(app, default_also, write_description,
                                     std::move(prefix));
}

void add_config_option(CLI::App& app) {
  app.set_config("--config", default_config_file,
                 "Read options from this TOML file: a [command] table each, "
                 "keys as the long options (default: ./sitemill.toml when "
                 "there is one); flags given here win");
  app.config_formatter(std::make_shared<toml_config>(app));
  // `sitemill generate --config ci.toml` as well as `sitemill --config ...`.
  app.fallthrough();
}

}  // namespace sitemill::cli
