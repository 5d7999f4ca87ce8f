#include "option_table.h"

#include <algorithm>
#include <cctype>

namespace sitemill::cli {
namespace {

std::vector<std::string> split(const std::string& text, char at) {
  std::vector<std::string> parts;
  std::size_t from = 0;
  for (std::size_t i = 0; i <= text.size(); ++i)
    if (i == text.size() || text[i] == at) {
      parts.push_back(text.substr(from, i - from));
      from = i + 1;
    }
  return parts;
}

std::string upper(std::string s) {
  for (char& c : s)
    c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

// The full type name is the type and each validator's description, joined
// by ':' ("TEXT:{xml,txt}", "INT:INT in [1 - 50000]", "TEXT:DIR"): CLI11
// keeps an IsMember's set nowhere else that a const walk can read.
void read_type(const std::string& full_type, option_entry& e) {
  const std::vector<std::string> parts = split(full_type, ':');
  const std::string base = upper(parts.front());
  e.value = value_kind::text;
  if (base == "INT" || base == "UINT" || base == "FLOAT" || base == "NUMBER")
    e.value = value_kind::number;
  else if (base == "TEXT" || base == "FILE" || base == "PATH")
    e.value = value_kind::file;
  else if (base == "DIR" || base == "DIRECTORY")
    e.value = value_kind::directory;
  for (std::size_t i = 1; i < parts.size(); ++i) {
    const std::string& p = parts[i];
    if (p.size() >= 2 && p.front() == '{' && p.back() == '}') {
      e.value = value_kind::choice;
      e.choices = split(p.substr(1, p.size() - 2), ',');
    } else if (p == "DIR" && e.value != value_kind::choice) {
      e.value = value_kind::directory;
    }
  }
}

option_entry describe_option(const CLI::Option& o,
                             const CLI::Formatter& formatter) {
  option_entry e;
  for (const std::string& l : o.get_lnames()) e.long_names.push_back("--" + l);
  for (const std::string& s : o.get_snames()) e.short_names.push_back("-" + s);
  if (o.get_positional()) e.positional = o.get_name(true, false);
  e.label = formatter.make_option_opts(&o);
  e.description = o.get_description();
  e.group = o.get_group();
  e.required = o.get_required();
  e.envname = o.get_envname();
  // A flag expects no value (its type size is not 0: CLI11 parses "true").
  if (o.get_expected_max() != 0) read_type(o.get_type_name(), e);
  e.repeatable = o.get_expected_max() > 1 ||
                 o.get_multi_option_policy() == CLI::MultiOptionPolicy::TakeAll;
  return e;
}

command_entry describe_command(const CLI::App& app) {
  static const CLI::Formatter plain;
  const auto* own =
      dynamic_cast<const CLI::Formatter*>(app.get_formatter().get());
  const CLI::Formatter& formatter = own != nullptr ? *own : plain;

  command_entry c;
  c.name = app.get_name();
  const std::string& d = app.get_description();
  const std::size_t end = d.find('\n');
  c.summary = d.substr(0, end);
  if (end != std::string::npos) c.description = d.substr(end + 1);
  c.footer = app.get_footer();
  for (const CLI::Option* o : app.get_options()) {
    if (o->get_group().empty()) continue;  // hidden
    c.options.push_back(describe_option(*o, formatter));
    const std::string& g = o->get_group();
    if (!o->get_positional() &&
        std::find(c.groups.begin(), c.groups.end(), g) == c.groups.end())
      c.groups.push_back(g);
  }
  return c;
}

}  // namespace

std::vector<const option_entry*> command_entry::positionals() const {
  std::vector<const option_entry*> out;
  for (const option_entry& o : options)
    if (!o.positional.empty()) out.push_back(&o);
  return out;
}

std::vector<const option_entry*> command_entry::named_options() const {
  std::vector<const option_entry*> out;
  for (const option_entry& o : options)
    if (o.positional.empty()) out.push_back(&o);
  return out;
}

std::vector<const option_entry*> program_entry::inherited() const {
  std::vector<const option_entry*> out;
  if (!fallthrough) return out;
  for (const option_entry* o : root.named_options()) {
    const auto& names = o->long_names;
    const bool help_or_version =
        std::find(names.begin(), names.end(), "--help") != names.end() ||
        std::find(names.begin(), names.end(), "--version") != names.end();
    if (!help_or_version) out.push_back(o);
  }
  return out;
}

std::vector<const CLI::App*> visible_commands(const CLI::App& root) {
  return root.get_subcommands(
      [](const CLI::App* sub) { return !sub->get_group().empty(); });
}

program_entry describe_program(const CLI::App& root) {
  program_entry p;
  p.root = describe_command(root);
  p.fallthrough = root.get_fallthrough();
  if (const CLI::Option* config = root.get_config_ptr()) {
    p.config_file = config->get_default_str();
    for (option_entry& o : p.root.options)
      if (!config->get_lnames().empty() && !o.long_names.empty() &&
          o.long_names.front() == "--" + config->get_lnames().front()) {
        o.value = value_kind::file;  // CLI11 gives it no type name
        p.config = &o;
      }
  }
  for (const CLI::App* sub : visible_commands(root))
    p.commands.push_back(describe_command(*sub));
  return p;
}

std::string short_help(const std::string& text, std::size_t width) {
  std::string s = text.substr(0, text.find('\n'));
  if (const std::size_t stop = s.find(". "); stop != std::string::npos)
    s.resize(stop);
  if (s.ends_with('.') && !s.ends_with("..")) s.pop_back();
  if (s.size() <= width) return s;
  std::size_t cut = s.rfind(' ', width - 3);
  if (cut == std::string::npos || cut == 0) cut = width - 3;
  s.resize(cut);
  while (!s.empty() && (s.back() == ',' || s.back() == ';' || s.back() == ' '))
    s.pop_back();
  return s + "...";
}

}  // namespace sitemill::cli
