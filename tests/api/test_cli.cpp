// The cucontact command-line tool on every example scene: exit status 0, the
// CSV's columns, and contact counts equal to those of the C API on the same
// scene; bench and info; --help; bad usage (2) and failures (1, one line on
// stderr).
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "tests/support/test_support.h"

using namespace cctest;

namespace {

const char* kScenes[] = {"capsule_humanoid", "bin_64_primitives", "table_objects", "terrain_spheres", "mesh_on_plane"};

struct CliRun {
    int status;
    std::string out, err;
};

std::string read_all(const std::string& path)
{
    std::ifstream f(path);
    std::stringstream s;
    s << f.rdbuf();
    return s.str();
}

// A file in this process's scratch directory (removed when the binary exits).
std::string temp_path(const std::string& name)
{
    static std::string dir = scratch_dir("cc_cli_");
    return dir + "/" + name;
}

CliRun run(const std::string& args)
{
    std::string out = temp_path("stdout"), err = temp_path("stderr");
    std::string cmd = std::string("'") + CC_CLI_PATH + "' " + args + " >'" + out + "' 2>'" + err + "'";
    int rc = std::system(cmd.c_str());
    CliRun r;
    r.status = WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
    r.out = read_all(out);
    r.err = read_all(err);
    return r;
}

std::vector<std::string> lines_of(const std::string& text)
{
    std::vector<std::string> lines;
    std::stringstream s(text);
    for (std::string line; std::getline(s, line);) lines.push_back(line);
    return lines;
}

// The number after "key: " on the summary line that starts with key, or -1.
long value_after(const std::string& text, const std::string& key)
{
    for (const std::string& line : lines_of(text))
        if (line.rfind(key + ": ", 0) == 0) return std::strtol(line.c_str() + key.size() + 2, nullptr, 10);
    return -1;
}

std::string scene_path(const char* name) { return std::string(CC_SCENES_DIR) + "/" + name + ".xml"; }

// Contacts the C API finds on the scene, as the tool sets it up.
int api_contacts(const std::string& path, int worlds)
{
    Builder b = make_builder();
    cc_mjcf_options o = cc_default_mjcf_options();
    o.worlds = worlds;
    EXPECT_EQ(cc_builder_load_mjcf(b.get(), path.c_str(), &o), CC_OK) << cc_last_error_message();
    cc_pipeline_def d = cc_default_pipeline_def();
    d.skip_unsupported_pairs = 1;
    World w;
    EXPECT_EQ(make_world(b.get(), cc_device_cpu(), d, &w), CC_OK) << cc_last_error_message();
    return (int)collide(w).size();
}

} // namespace

class CliScene : public ::testing::TestWithParam<const char*> {};

TEST_P(CliScene, CollideWritesEveryContactTheApiFinds)
{
    std::string csv = temp_path(std::string(GetParam()) + ".csv");
    CliRun r = run("collide '" + scene_path(GetParam()) + "' --csv '" + csv + "' --quiet");
    ASSERT_EQ(r.status, 0) << r.err;
    long contacts = value_after(r.out, "contacts");
    ASSERT_GE(contacts, 0) << r.out;
    EXPECT_GT(contacts, 0) << "every example scene has resting contacts";
    EXPECT_EQ(contacts, api_contacts(scene_path(GetParam()), 1));
    EXPECT_GE(value_after(r.out, "candidate pairs"), 1);
    EXPECT_NE(r.out.find("contacts by pair type:"), std::string::npos);
    auto lines = lines_of(read_all(csv));
    ASSERT_FALSE(lines.empty());
    EXPECT_EQ(lines[0], "world,shape0,shape1,name0,name1,distance,point0_x,point0_y,point0_z,point1_x,point1_y,point1_z,"
                        "normal_x,normal_y,normal_z");
    EXPECT_EQ((long)lines.size() - 1, contacts);
    for (size_t i = 1; i < lines.size(); ++i) {
        int commas = 0;
        for (char c : lines[i]) commas += c == ',';
        EXPECT_EQ(commas, 14) << lines[i];
        // Normals are unit vectors.
        std::vector<double> v;
        std::stringstream s(lines[i]);
        for (std::string f; std::getline(s, f, ',');) v.push_back(std::atof(f.c_str()));
        ASSERT_EQ(v.size(), 15u);
        EXPECT_NEAR(v[12] * v[12] + v[13] * v[13] + v[14] * v[14], 1.0, 1e-4) << lines[i];
        // Both surface points lie within a few millimetres of each other.
        double dx = v[9] - v[6], dy = v[10] - v[7], dz = v[11] - v[8];
        EXPECT_LT(dx * dx + dy * dy + dz * dz, 0.01 * 0.01) << lines[i];
    }
    // Every pair type of the scenes has a route: nothing is skipped, and the
    // surface scenes report their surface contacts.
    EXPECT_EQ(r.out.find("skipped: no narrow-phase route yet for"), std::string::npos) << r.out;
    if (std::string(GetParam()) == "mesh_on_plane") {
        // Mesh geoms collide as convex hulls by default, as in MuJoCo.
        EXPECT_NE(r.out.find("plane-convex hull"), std::string::npos) << r.out;
    }
    if (std::string(GetParam()) == "terrain_spheres") {
        EXPECT_NE(r.out.find("sphere-heightfield"), std::string::npos) << r.out;
    }
}

TEST_P(CliScene, BenchAndInfoRun)
{
    CliRun b = run("bench '" + scene_path(GetParam()) + "' --repeat 2 --worlds 2 --quiet");
    ASSERT_EQ(b.status, 0) << b.err;
    auto lines = lines_of(b.out);
    ASSERT_GE(lines.size(), 2u);
    for (const char* column : {"scene", "device", "worlds", "shapes", "broad", "pairs", "contacts", "aabb_ms", "broad_ms",
                               "narrow_ms", "other_ms", "total_ms", "contacts/s", "dev_MiB"})
        EXPECT_NE(lines[0].find(column), std::string::npos) << column;
    EXPECT_EQ(lines[1].rfind(GetParam(), 0), 0u) << lines[1];
    CliRun i = run("info '" + scene_path(GetParam()) + "' --quiet");
    ASSERT_EQ(i.status, 0) << i.err;
    EXPECT_EQ(value_after(i.out, "worlds"), 1);
    EXPECT_NE(i.out.find("capacity: "), std::string::npos);
    EXPECT_NE(i.out.find("device memory"), std::string::npos);
}

INSTANTIATE_TEST_SUITE_P(Scenes, CliScene, ::testing::ValuesIn(kScenes),
                         [](const ::testing::TestParamInfo<const char*>& i) { return std::string(i.param); });

TEST(Cli, WorldsReplicateTheContacts)
{
    std::string json = temp_path("bin.json");
    CliRun one = run("collide '" + scene_path("bin_64_primitives") + "' --quiet");
    CliRun three = run("collide '" + scene_path("bin_64_primitives") + "' --worlds 3 --deterministic --json '" + json + "' --quiet");
    ASSERT_EQ(one.status, 0) << one.err;
    ASSERT_EQ(three.status, 0) << three.err;
    EXPECT_EQ(value_after(three.out, "contacts"), 3 * value_after(one.out, "contacts"));
    EXPECT_EQ(value_after(three.out, "contacts"), api_contacts(scene_path("bin_64_primitives"), 3));
    std::string text = read_all(json);
    EXPECT_EQ(text.rfind("{\"scene\": ", 0), 0u);
    EXPECT_NE(text.find("\"world\": 2"), std::string::npos);
    EXPECT_NE(text.find("\"name1\": \"item"), std::string::npos);
}

TEST(Cli, MeshWorkItemOverflowIsRefitNotLost)
{
    // A 4 m sphere sunk into a 1000 x 1000 heightfield: far more triangles
    // lie near it than the work-item estimate allows. The tool refits its
    // capacities and writes what a pipeline with room for everything finds.
    std::string path = temp_path("big_hfield.xml");
    {
        std::ofstream f(path);
        f << "<mujoco><asset><hfield name=\"h\" nrow=\"1000\" ncol=\"1000\" size=\"10 10 0.5 0.1\"/></asset>"
             "<worldbody><geom type=\"hfield\" hfield=\"h\"/><body pos=\"0 0 1.5\"><freejoint/><geom type=\"sphere\" size=\"2\"/></body>"
             "</worldbody></mujoco>";
    }
    Builder b = make_builder();
    ASSERT_EQ(cc_builder_load_mjcf(b.get(), path.c_str(), nullptr), CC_OK) << cc_last_error_message();
    World estimated;
    ASSERT_EQ(make_world(b.get(), cc_device_cpu(), cc_default_pipeline_def(), &estimated), CC_OK);
    collide(estimated);
    cc_overflow ov;
    ASSERT_EQ(cc_pipeline_get_overflow(estimated.pipeline.get(), &ov), CC_OK);
    EXPECT_TRUE(ov.mesh_items_overflowed) << "the scene no longer overflows the estimate: the test checks nothing";
    cc_pipeline_def roomy = cc_default_pipeline_def();
    roomy.mesh_work_items_max = 4 * ov.mesh_items_needed + 16;
    World full;
    ASSERT_EQ(make_world(b.get(), cc_device_cpu(), roomy, &full), CC_OK);
    int expected = (int)collide(full).size();
    ASSERT_GT(expected, 0);
    CliRun r = run("collide '" + path + "' --quiet");
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(value_after(r.out, "contacts"), expected);
    CliRun bench = run("bench '" + path + "' --repeat 1");
    EXPECT_EQ(bench.status, 0) << bench.err;
    EXPECT_EQ(bench.err.find("overflow"), std::string::npos) << bench.err;
}

TEST(Cli, MeshModeSwitchKeepsTriangleMeshes)
{
    CliRun hull = run("collide '" + scene_path("mesh_on_plane") + "' --mesh-mode hull --quiet");
    CliRun mesh = run("collide '" + scene_path("mesh_on_plane") + "' --mesh-mode mesh --quiet");
    ASSERT_EQ(hull.status, 0) << hull.err;
    ASSERT_EQ(mesh.status, 0) << mesh.err;
    EXPECT_NE(hull.out.find("plane-convex hull"), std::string::npos) << hull.out;
    EXPECT_EQ(hull.out.find("plane-mesh"), std::string::npos) << hull.out;
    EXPECT_NE(mesh.out.find("plane-mesh"), std::string::npos) << mesh.out;
    CliRun bad = run("collide '" + scene_path("mesh_on_plane") + "' --mesh-mode triangles");
    EXPECT_EQ(bad.status, 2);
    EXPECT_NE(bad.err.find("unknown mesh mode 'triangles' (hull, mesh)"), std::string::npos) << bad.err;
}

TEST(Cli, SdfOptionBuildsOneFieldPerMeshAndScale)
{
    // mesh_on_plane uses three meshes once each: three SDFs, and the
    // contacts of the scene still come out.
    const std::string scene = "'" + scene_path("mesh_on_plane") + "'";
    CliRun info = run("info " + scene + " --mesh-mode mesh --sdf 64 --quiet");
    ASSERT_EQ(info.status, 0) << info.err;
    EXPECT_NE(info.out.find("sdfs: 3 stored once"), std::string::npos) << info.out;
    CliRun collide = run("collide " + scene + " --mesh-mode mesh --sdf 64 --quiet");
    ASSERT_EQ(collide.status, 0) << collide.err;
    EXPECT_NE(collide.out.find("plane-mesh"), std::string::npos) << collide.out;
    CliRun odd = run("info " + scene + " --mesh-mode mesh --sdf 60");
    EXPECT_EQ(odd.status, 2);
    EXPECT_NE(odd.err.find("a multiple of 8"), std::string::npos) << odd.err;
    CliRun hulls = run("info " + scene + " --sdf 64");
    EXPECT_EQ(hulls.status, 2);
    EXPECT_NE(hulls.err.find("add --mesh-mode mesh"), std::string::npos) << hulls.err;
    CliRun cache_only = run("info " + scene + " --mesh-mode mesh --sdf-cache /tmp");
    EXPECT_EQ(cache_only.status, 2);
    EXPECT_NE(cache_only.err.find("needs --sdf R"), std::string::npos) << cache_only.err;
}

TEST(Cli, HelpUsageAndFailures)
{
    for (const char* args : {"--help", "collide --help", "bench --help", "info -h"}) {
        CliRun r = run(args);
        EXPECT_EQ(r.status, 0) << args;
        EXPECT_NE(r.out.find("usage: cucontact"), std::string::npos) << args;
    }
    for (const char* args : {"", "frobnicate x.xml", "collide", "collide a.xml --worlds 0", "collide a.xml --device tpu",
                             "collide a.xml --csv x.csv --json x.json", "bench a.xml --repeat", "info a.xml --csv x",
                             "collide a.xml b.xml"}) {
        CliRun r = run(args);
        EXPECT_EQ(r.status, 2) << args << ": " << r.err;
        EXPECT_FALSE(r.err.empty()) << args;
    }
    CliRun missing = run("collide /nonexistent/scene.xml");
    EXPECT_EQ(missing.status, 1);
    EXPECT_EQ(lines_of(missing.err).size(), 1u) << missing.err;
    EXPECT_NE(missing.err.find("/nonexistent/scene.xml"), std::string::npos);
    std::string bad = temp_path("bad.xml");
    std::ofstream(bad) << "<mujoco>\n<worldbody>\n<geom type=\"teapot\"/>\n</worldbody>\n</mujoco>\n";
    CliRun broken = run("info '" + bad + "'");
    EXPECT_EQ(broken.status, 1);
    EXPECT_NE(broken.err.find(bad + ":3:"), std::string::npos) << broken.err;
    if (cc_cuda_device_count() == 0) {
        CliRun nodev = run("collide '" + scene_path("table_objects") + "' --device cuda --quiet");
        EXPECT_EQ(nodev.status, 1);
        EXPECT_NE(nodev.err.find("CC_ERR_NO_DEVICE"), std::string::npos) << nodev.err;
    }
}
