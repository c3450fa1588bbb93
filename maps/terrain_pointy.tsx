<?xml version="1.0" encoding="UTF-8"?>
<tileset version="1.10" tiledversion="1.10.2" name="terrain_pointy" tilewidth="64" tileheight="74" tilecount="22" columns="8">
 <image source="../assets/tiles/terrain_pointy.png" width="512" height="222"/>
 <tile id="0" type="sand">
  <properties>
   <property name="terrain" value="sand"/>
  </properties>
 </tile>
 <tile id="1" type="sand_pebbles">
  <properties>
   <property name="terrain" value="sand"/>
  </properties>
 </tile>
 <tile id="2" type="sand_scrub">
  <properties>
   <property name="terrain" value="sand"/>
  </properties>
 </tile>
 <tile id="3" type="grass">
  <properties>
   <property name="terrain" value="dry grass"/>
  </properties>
 </tile>
 <tile id="4" type="grass_thick">
  <properties>
   <property name="terrain" value="dry grass"/>
  </properties>
 </tile>
 <tile id="5" type="road">
  <properties>
   <property name="terrain" value="dirt road"/>
  </properties>
 </tile>
 <tile id="6" type="road_ruts">
  <properties>
   <property name="terrain" value="dirt road"/>
  </properties>
 </tile>
 <tile id="7" type="corral">
  <properties>
   <property name="terrain" value="trampled dirt"/>
  </properties>
 </tile>
 <tile id="8" type="floor">
  <properties>
   <property name="terrain" value="plank floor"/>
  </properties>
 </tile>
 <tile id="9" type="boardwalk">
  <properties>
   <property name="terrain" value="boardwalk"/>
  </properties>
 </tile>
 <tile id="10" type="flagstone">
  <properties>
   <property name="terrain" value="flagstone"/>
  </properties>
 </tile>
 <tile id="11" type="water">
  <properties>
   <property name="terrain" value="deep water"/>
   <property name="impassable" type="bool" value="true"/>
  </properties>
 </tile>
 <tile id="12" type="ford">
  <properties>
   <property name="terrain" value="shallow ford"/>
   <property name="move_cost" type="int" value="3"/>
  </properties>
 </tile>
 <tile id="13" type="scree">
  <properties>
   <property name="terrain" value="scree"/>
   <property name="move_cost" type="int" value="2"/>
  </properties>
 </tile>
 <tile id="14" type="scree_rocks">
  <properties>
   <property name="terrain" value="scree"/>
   <property name="move_cost" type="int" value="2"/>
  </properties>
 </tile>
 <tile id="15" type="rail">
  <properties>
   <property name="terrain" value="rail track"/>
  </properties>
 </tile>
 <tile id="16" type="creek">
  <properties>
   <property name="terrain" value="dry creek bed"/>
  </properties>
 </tile>
 <tile id="17" type="rock">
  <properties>
   <property name="terrain" value="canyon rock"/>
   <property name="impassable" type="bool" value="true"/>
   <property name="blocks_sight" type="bool" value="true"/>
   <property name="cover" type="string" propertytype="Cover" value="full"/>
  </properties>
 </tile>
 <tile id="18" type="rock_red">
  <properties>
   <property name="terrain" value="canyon rock"/>
   <property name="impassable" type="bool" value="true"/>
   <property name="blocks_sight" type="bool" value="true"/>
   <property name="cover" type="string" propertytype="Cover" value="full"/>
  </properties>
 </tile>
 <tile id="19" type="wall_adobe">
  <properties>
   <property name="terrain" value="adobe wall"/>
   <property name="impassable" type="bool" value="true"/>
   <property name="blocks_sight" type="bool" value="true"/>
   <property name="cover" type="string" propertytype="Cover" value="full"/>
  </properties>
 </tile>
 <tile id="20" type="wall_timber">
  <properties>
   <property name="terrain" value="timber wall"/>
   <property name="impassable" type="bool" value="true"/>
   <property name="blocks_sight" type="bool" value="true"/>
   <property name="cover" type="string" propertytype="Cover" value="full"/>
  </properties>
 </tile>
 <tile id="21" type="wall_stone">
  <properties>
   <property name="terrain" value="stone wall"/>
   <property name="impassable" type="bool" value="true"/>
   <property name="blocks_sight" type="bool" value="true"/>
   <property name="cover" type="string" propertytype="Cover" value="full"/>
  </properties>
 </tile>
</tileset>
