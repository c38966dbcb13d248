#pragma once
// `terragrid serve`'s own options (the explorer itself lives in src/serve): how they read,
// and how their values are checked. The config options are the run's.

#include <string>
#include <vector>

#include <boost/program_options.hpp>

#include "terragrid/serve/serve.hpp"

namespace terragrid::cli {

/// --port, --host, --cache-mb, --request-timeout, --max-connections.
void addServeOptions(boost::program_options::options_description& d);

/// The ServeOptions the command line gives (threads and the export directory included);
/// every bad value is a sentence in `problems`, naming the option, the rule and the value.
ServeOptions serveOptionsFrom(const boost::program_options::variables_map& vm, int threads,
                              std::vector<std::string>& problems);

/// The help text below serve's usage line.
extern const char* const kServeHelp;

}  // namespace terragrid::cli
