// Botzone's compiler offers jsoncpp as "jsoncpp/json.h"; Debian's libjsoncpp-dev installs it as
// /usr/include/jsoncpp/json/json.h. Referee's Botzone build adds -isystem /usr/include/jsoncpp, so both
// "jsoncpp/json.h" (this file) and "json/json.h" reach the same header.
#include <json/json.h>
