// A hostile-input corpus, generated here: each family of broken or extreme
// scene files (truncated XML, bad numbers, negative and huge sizes, missing
// and truncated assets, STL with a lying triangle count, degenerate meshes,
// include cycles and bombs, deep nesting, very many geoms, unknown
// elements, duplicate names) written to files and loaded from disk. A
// rejected file must fail with its status, a message that names the file
// and a line, leave the builder as it was, and take little time; an
// extreme but valid one must load within its time bound. CI runs it under
// AddressSanitizer and UBSan.
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <string>
#include <vector>

#include "tests/support/test_support.h"

using namespace cctest;

namespace {

std::string corpus_dir()
{
    static std::string dir = scratch_dir("cc_hostile_");
    return dir;
}

void write(const std::string& name, const std::string& bytes)
{
    std::ofstream f(corpus_dir() + "/" + name, std::ios::binary);
    f << bytes;
}

std::string times(const std::string& s, int n)
{
    std::string out;
    for (int i = 0; i < n; ++i) out += s;
    return out;
}

std::string scene(const std::string& body, const std::string& head = "")
{
    return "<mujoco>" + head + "\n<worldbody>\n" + body + "\n</worldbody></mujoco>\n";
}

// A binary STL whose header claims `claimed` triangles but holds `real`.
std::string lying_stl(uint32_t claimed, int real)
{
    std::string s(80, ' ');
    s.append(reinterpret_cast<const char*>(&claimed), 4);
    for (int i = 0; i < real; ++i) {
        float rec[12] = {0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0};
        s.append(reinterpret_cast<const char*>(rec), sizeof rec);
        s.append(2, '\0');
    }
    return s;
}

struct Case {
    std::string name;      // the scene's file name
    std::string xml;       // its contents
    cc_status status;      // expected; CC_OK for extreme but valid scenes
    std::string words;     // in the message
    std::string names;     // the file the message must name (default: the scene)
    double seconds = 2.0;  // time bound of the load
};

std::vector<Case> corpus()
{
    const std::string mesh = "<asset><mesh name=\"m\" file=\"";
    std::vector<Case> c;
    // Truncated and malformed XML.
    c.push_back({"truncated.xml", scene("<geom type=\"sphere\" size=\"1\"/>").substr(0, 40), CC_ERR_PARSE, "malformed XML", ""});
    c.push_back({"unclosed_attr.xml", "<mujoco><worldbody><geom size=\"1/></worldbody></mujoco>", CC_ERR_PARSE, "malformed XML", ""});
    c.push_back({"not_xml.xml", std::string("\x00\x01\x02garbage", 10), CC_ERR_PARSE, "", ""});
    // Bad numbers.
    for (const char* v : {"nan", "inf", "1e39", "0x10", "1,5", "--1"})
        c.push_back({std::string("number_") + v + ".xml", scene("<geom type=\"sphere\" size=\"" + std::string(v) + "\"/>"), CC_ERR_PARSE, "", ""});
    c.push_back({"number_empty.xml", scene("<geom type=\"sphere\" size=\"\"/>"), CC_ERR_INVALID_SIZE, "radius", ""});
    // Negative, zero and huge sizes.
    c.push_back({"negative.xml", scene("<geom type=\"box\" size=\"1 -1 1\"/>"), CC_ERR_INVALID_SIZE, "negative size", ""});
    c.push_back({"huge.xml", scene("<geom type=\"sphere\" size=\"1e30\"/>"), CC_ERR_INVALID_SIZE, "outside", ""});
    c.push_back({"tiny.xml", scene("<geom type=\"box\" size=\"1e-30 1 1\"/>"), CC_ERR_INVALID_SIZE, "outside", ""});
    c.push_back({"huge_hfield.xml", "<mujoco><asset>\n<hfield name=\"h\" nrow=\"65536\" ncol=\"65536\" size=\"1 1 1 0\"/></asset></mujoco>",
                 CC_ERR_INVALID_SIZE, "samples", ""});
    // Missing and truncated assets.
    c.push_back({"missing_mesh.xml", "<mujoco>" + mesh + "absent.stl\"/></asset></mujoco>", CC_ERR_IO, "cannot open", ""});
    write("lying.stl", lying_stl(1000000, 2));
    c.push_back({"lying_stl.xml", "<mujoco>" + mesh + "lying.stl\"/></asset></mujoco>", CC_ERR_PARSE, "", "lying.stl"});
    write("empty.stl", "");
    c.push_back({"empty_stl.xml", "<mujoco>" + mesh + "empty.stl\"/></asset></mujoco>", CC_ERR_PARSE, "", "empty.stl"});
    write("short.obj", "v 0 0 0\nv 1 0 0\nf 1 2 3\n");
    c.push_back({"short_obj.xml", "<mujoco>" + mesh + "short.obj\"/></asset></mujoco>", CC_ERR_PARSE, "", "short.obj"});
    write("nan.obj", "v 0 0 0\nv nan 0 0\nv 0 1 0\nf 1 2 3\n");
    c.push_back({"nan_obj.xml", "<mujoco>" + mesh + "nan.obj\"/></asset></mujoco>", CC_ERR_PARSE, "not a finite number", "nan.obj"});
    // Degenerate meshes and hulls.
    c.push_back({"flat_hull.xml", "<mujoco><asset><mesh name=\"m\" vertex=\"0 0 0 1 0 0 0 1 0 1 1 0\"/></asset>" +
                                      scene("<body><freejoint/><geom type=\"mesh\" mesh=\"m\"/></body>").substr(8),
                 CC_ERR_INVALID_SIZE, "plane", ""});
    c.push_back({"bad_face.xml", "<mujoco><asset>\n<mesh name=\"m\" vertex=\"0 0 0 1 0 0 0 1 0\" face=\"0 1 7\"/></asset></mujoco>", CC_ERR_PARSE,
                 "names no vertex", ""});
    // Include cycles and bombs.
    write("cycle_a.xml", "<mujoco><include file=\"cycle_b.xml\"/></mujoco>");
    write("cycle_b.xml", "<mujoco><include file=\"cycle_a.xml\"/></mujoco>");
    c.push_back({"cycle.xml", "<mujoco><include file=\"cycle_a.xml\"/></mujoco>", CC_ERR_PARSE, "deeper than", "cycle_"});
    for (int i = 0; i < 12; ++i)
        write("bomb" + std::to_string(i) + ".xml",
              "<mujoco>" + (i < 11 ? times("<include file=\"bomb" + std::to_string(i + 1) + ".xml\"/>", 4) : "") + "</mujoco>");
    c.push_back({"bomb.xml", "<mujoco><include file=\"bomb0.xml\"/></mujoco>", CC_ERR_PARSE, "files in all", "bomb"});
    // Unknown elements, duplicate names, misplaced joints.
    c.push_back({"dup_body.xml", scene("<body name=\"b\"/>\n<body name=\"b\"/>"), CC_ERR_PARSE, "unique", ""});
    c.push_back({"dup_class.xml", "<mujoco><default>\n<default class=\"a\"/>\n<default class=\"a\"/></default></mujoco>", CC_ERR_PARSE,
                 "defined twice", ""});
    c.push_back({"world_joint.xml", scene("<joint/>"), CC_ERR_PARSE, "world cannot move", ""});
    // Extreme but valid: deep nesting, many geoms, unknown elements.
    c.push_back({"deep_bodies.xml", scene(times("<body><joint/><geom type=\"sphere\" size=\"0.01\"/>", 10000) + times("</body>", 10000)),
                 CC_OK, "", "", 10.0});
    c.push_back({"deep_unknown.xml", "<mujoco>" + times("<x>", 10000) + times("</x>", 10000) + "</mujoco>", CC_OK, "", "", 5.0});
    c.push_back({"many_geoms.xml", scene(times("<geom type=\"sphere\" size=\"0.01\"/>", 100000)), CC_OK, "", "", 20.0});
    return c;
}

TEST(HostileCorpus, EveryFileLoadsOrFailsClearlyAndChangesNothing)
{
    for (const Case& k : corpus()) {
        SCOPED_TRACE(k.name);
        write(k.name, k.xml);
        std::string path = corpus_dir() + "/" + k.name;
        Builder b = make_builder();
        ASSERT_EQ(cc_builder_add_sphere(b.get(), CC_BODY_WORLD, 1.0f, nullptr, nullptr), CC_OK);
        auto t0 = std::chrono::steady_clock::now();
        cc_status s = cc_builder_load_mjcf(b.get(), path.c_str(), nullptr);
        double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        EXPECT_LT(seconds, k.seconds);
        std::string msg = cc_last_error_message();
        if (k.status == CC_OK) {
            EXPECT_EQ(s, CC_OK) << msg;
            continue;
        }
        EXPECT_EQ(s, k.status) << cc_status_string(s) << ": " << msg;
        std::string named = k.names.empty() ? path : k.names;
        EXPECT_NE(msg.find(named), std::string::npos) << msg;
        EXPECT_NE(msg.find(".xml:"), std::string::npos) << "no line: " << msg; // file:line of the scene or include
        if (!k.words.empty()) {
            EXPECT_NE(msg.find(k.words), std::string::npos) << msg;
        }
        EXPECT_EQ(cc_builder_shape_count(b.get()), 1) << "a failed load changed the builder";
        EXPECT_EQ(cc_builder_body_count(b.get()), 0);
        EXPECT_EQ(cc_builder_mesh_count(b.get()), 0);
        EXPECT_EQ(cc_builder_world_count(b.get()), 0);
    }
}

}  // namespace
